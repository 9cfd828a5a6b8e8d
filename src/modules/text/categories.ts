/**
 * The trend taxonomy: 17 top-level categories, each with children, named as slash paths
 * (`Technology/AI`, `Sports/Football`) with stable slugs (`technology-ai`, `sports-football`).
 *
 * `categorise` files a trend under one category:
 *  1. Hints carried by its signals win when they resolve to a taxonomy entry — first an explicit category
 *     (name, slug or a common section alias such as `tech`), then a subreddit, then free-form source tags.
 *     A hint that names a top-level category is refined to its best-scoring child when one scores.
 *  2. Otherwise weighted keyword hits against per-child lexicons: an exact match of the trend key counts 6×
 *     the term weight, a term inside the key 3×, inside another surface form 2×, and each distinct term in
 *     a sample of signal texts 1× (strong terms weigh 3, ordinary ones 1). The best child with a score of
 *     at least 2 wins; ties go to the earlier entry in taxonomy order.
 *  3. Otherwise `General/Other`.
 * Lexicon terms pass through `normaliseKey`, so plurals and spellings match as trend keys do. Same input,
 * same category: no randomness, no iteration over unordered data.
 */
import { normaliseKey, normaliseTokens } from './keys.ts';

interface Category {
  /** Slash path: `Technology` or `Technology/AI`. */
  name: string;
  /** Stable URL-safe id derived from the path: `technology-ai`. */
  slug: string;
  description: string;
  /** The parent's name; null for a top-level category. */
  parent: string | null;
}

interface CategoryHints {
  /** Category proposed by the source or the submitter: a taxonomy name or slug, or a section alias. */
  category?: string | readonly string[] | null;
  /** Subreddit(s) the signals came from: `r/soccer`, `soccer`. */
  subreddit?: string | readonly string[] | null;
  /** Free-form source tags: news sections, feed categories, HN tags. */
  tags?: readonly string[] | null;
}

interface CategoriseInput {
  /** The trend's normalised key. */
  key: string;
  surfaceForms?: readonly string[];
  /** A sample of signal texts; only the first 20 (1,000 chars each) are read. */
  texts?: readonly string[];
  /** Lexicon hits of some of those texts, worked out already (`sampleTextHits`, in an NLP thread). */
  knownHits?: ReadonlyMap<string, TextHits>;
  hints?: CategoryHints | null;
}

/** A text's lexicon hits summed by category, as [index, weight, index, weight, …]. */
export type TextHits = ArrayLike<number>;

export const FALLBACK_CATEGORY = 'General/Other';

interface ChildDefinition {
  name: string;
  description: string;
  /** Comma-separated terms of weight 3 (distinctive). */
  strong?: string;
  /** Comma-separated terms of weight 1 (suggestive). */
  terms?: string;
}

interface TopDefinition {
  name: string;
  description: string;
  children: ChildDefinition[];
}

const TAXONOMY: TopDefinition[] = [
  {
    name: 'Technology',
    description: 'Software, devices, the internet and the companies that build them.',
    children: [
      {
        name: 'AI',
        description: 'Artificial intelligence: models, assistants, labs and their use.',
        strong:
          'ai, artificial intelligence, machine learning, deep learning, openai, chatgpt, gpt, gpt 4, gpt 5, llm, ' +
          'large language model, generative ai, genai, anthropic, claude, midjourney, stable diffusion, ' +
          'hugging face, deepmind, deepseek, mistral ai, neural network, agi, ai agent, agentic ai, ' +
          'prompt engineering, diffusion model, sam altman, ai model, ai safety, chatbot, copilot',
        terms:
          'gemini, llama, grok, perplexity, xai, inference, fine tuning, prompt, alignment, computer vision, ' +
          'nlp, natural language processing, reinforcement learning, automation, robotics, robot, dataset, ' +
          'benchmark, transformer',
      },
      {
        name: 'Cybersecurity',
        description: 'Attacks, breaches, vulnerabilities and defence of computer systems.',
        strong:
          'cybersecurity, cyber security, ransomware, malware, data breach, cyberattack, cyber attack, phishing, ' +
          'zero day, vulnerability, cve, hacker, ddos, botnet, spyware, infosec, exploit, security flaw, ' +
          'threat actor, lockbit, crowdstrike, data leak',
        terms:
          'hacking, hack, password, encryption, security patch, breach, leak, firewall, authentication, 2fa, ' +
          'patch tuesday, backdoor, trojan, credentials, cisa',
      },
      {
        name: 'Software & Development',
        description: 'Programming, open source, cloud and developer tools.',
        strong:
          'software, programming, developer, open source, github, javascript, typescript, python, kubernetes, ' +
          'docker, linux, devops, sdk, compiler, cloud computing, aws, azure, google cloud, saas, node js, ' +
          'react, rust lang, golang, programming language, web development, frontend, backend',
        terms:
          'code, coding, bug, app, framework, api, database, microsoft, windows, macos, npm, postgresql, sql, ' +
          'java, release notes, beta, version',
      },
      {
        name: 'Consumer Electronics',
        description: 'Phones, computers, wearables and other gadgets.',
        strong:
          'iphone, ipad, macbook, apple watch, airpods, android, samsung galaxy, google pixel, smartphone, ' +
          'smartwatch, laptop, tablet, headphones, wearable, vision pro, gadget, wwdc, foldable phone, ces',
        terms:
          'apple, samsung, pixel, camera, battery life, charger, usb c, foldable, ios, unboxing, xiaomi, ' +
          'oneplus, huawei, oled, tv, phone',
      },
      {
        name: 'Social Media & Internet',
        description: 'Platforms, creators, online services and the web.',
        strong:
          'social media, twitter, facebook, instagram, tiktok, youtube, reddit, bluesky, threads app, mastodon, ' +
          'snapchat, linkedin, whatsapp, telegram, discord, influencer, content moderation, content creator, ' +
          'search engine, google search',
        terms:
          'meta, elon musk, algorithm, hashtag, creator, platform, account, feed, browser, chrome, firefox, ' +
          'website, web, internet, online, google',
      },
      {
        name: 'Semiconductors & Hardware',
        description: 'Chips, computing hardware, data centres and quantum computers.',
        strong:
          'semiconductor, chip, chipmaker, nvidia, amd, intel, tsmc, qualcomm, arm holdings, gpu, cpu, ' +
          'processor, foundry, asml, data center, datacenter, supercomputer, quantum computing, quantum computer',
        terms:
          'hardware, server, memory chip, dram, nand, wafer, h100, blackwell, transistor, export controls',
      },
      {
        name: 'Telecom',
        description: 'Mobile networks, broadband and satellite internet.',
        strong:
          '5g, 6g, telecom, telecommunications, broadband, fiber optic, fibre broadband, mobile network, ' +
          'verizon, at&t, t mobile, vodafone, starlink, satellite internet',
        terms: 'spectrum, roaming, wifi, carrier, signal, coverage',
      },
    ],
  },
  {
    name: 'Business & Finance',
    description: 'Markets, money, companies and the economy.',
    children: [
      {
        name: 'Markets & Stocks',
        description: 'Stock, bond and commodity markets and the people who trade them.',
        strong:
          'stock market, stocks, wall street, nasdaq, s&p 500, dow jones, ftse, nikkei, ipo, bull market, ' +
          'bear market, sell off, hedge fund, etf, bond yield, treasury yield, dividend, short selling, nyse, ' +
          'market cap, meme stock, wallstreetbets, market crash',
        terms:
          'investor, trading, trader, portfolio, index, volatility, futures, options, rally, shareholder',
      },
      {
        name: 'Crypto',
        description: 'Cryptocurrencies, blockchains and digital assets.',
        strong:
          'bitcoin, btc, ethereum, crypto, cryptocurrency, blockchain, nft, web3, defi, stablecoin, solana, ' +
          'dogecoin, coinbase, binance, altcoin, crypto exchange, memecoin, bitcoin halving, satoshi',
        terms: 'token, wallet, mining, xrp, ripple, cardano, tether, usdc, eth, halving',
      },
      {
        name: 'Economy',
        description: 'Inflation, jobs, interest rates, trade and economic policy.',
        strong:
          'inflation, recession, interest rate, federal reserve, fed, central bank, gdp, unemployment, ' +
          'jobs report, cpi, economy, economic growth, tariff, trade war, ecb, bank of england, rate cut, ' +
          'rate hike, monetary policy, fiscal policy, national debt, cost of living, jerome powell',
        terms:
          'price, wage, consumer spending, labor market, labour market, supply chain, import, export, ' +
          'trade deal, treasury, imf, world bank, minimum wage, deficit, economist',
      },
      {
        name: 'Startups & Venture Capital',
        description: 'New companies, funding rounds and the investors behind them.',
        strong:
          'startup, venture capital, seed round, series a, series b, unicorn startup, funding round, ' +
          'y combinator, accelerator, founder, angel investor, vc funding',
        terms: 'raise, funding, pitch, incubator, bootstrapped, valuation, techcrunch, vc',
      },
      {
        name: 'Companies & Earnings',
        description: 'Corporate results, deals, leadership and layoffs.',
        strong:
          'earnings, quarterly results, revenue, profit, layoffs, merger, acquisition, bankruptcy, chapter 11, ' +
          'annual report, earnings call, buyback, job cuts, profit warning',
        terms:
          'ceo, corporate, board, executive, restructuring, hiring, headquarters, amazon, walmart, berkshire, ' +
          'boeing, deal, guidance, sales',
      },
      {
        name: 'Personal Finance',
        description: 'Saving, borrowing, taxes and retirement.',
        strong:
          'personal finance, mortgage, savings, credit card, credit score, budgeting, retirement, pension, ' +
          '401k, tax return, student loan, insurance premium, frugal',
        terms: 'bank account, loan, interest, budget, tax, irs, refund, debt, insurance',
      },
      {
        name: 'Real Estate',
        description: 'Housing and property markets.',
        strong:
          'real estate, housing market, house price, home price, mortgage rate, rental market, property market, ' +
          'homebuyer, landlord, eviction, housing crisis, commercial real estate, realtor',
        terms: 'apartment, condo, home sale, zillow, construction, housing, rent, tenant',
      },
      {
        name: 'Retail & E-commerce',
        description: 'Shops, online shopping and consumer brands.',
        strong:
          'e commerce, ecommerce, retail, retailer, black friday, cyber monday, prime day, online shopping, ' +
          'shopify, temu, shein, alibaba',
        terms: 'shopping, store, discount, walmart, target, costco, consumer, brand',
      },
    ],
  },
  {
    name: 'Politics & Government',
    description: 'Elections, governments, law and international affairs.',
    children: [
      {
        name: 'Elections',
        description: 'Campaigns, candidates, polls and results.',
        strong:
          'election, vote, voting, ballot, poll, polling, candidate, campaign, primary election, midterm, ' +
          'presidential election, general election, electoral college, turnout, swing state, referendum, ' +
          'exit poll, presidential debate',
        terms:
          'democrat, republican, gop, labour party, conservative party, trump, biden, harris, electorate, debate',
      },
      {
        name: 'Policy & Legislation',
        description: 'Governments, parliaments, laws and regulation.',
        strong:
          'legislation, bill, congress, senate, parliament, regulation, executive order, policy, ' +
          'house of representatives, white house, government shutdown, lawmaker, house speaker, ' +
          'prime minister, european commission, downing street',
        terms:
          'president, governor, minister, government, administration, cabinet, reform, immigration, law, ' +
          'trump, biden, politics, political, politician',
      },
      {
        name: 'International Relations',
        description: 'Diplomacy, conflicts between states, sanctions and summits.',
        strong:
          'diplomacy, foreign policy, united nations, un security council, nato, summit, sanction, ceasefire, ' +
          'peace talk, treaty, embassy, g7, g20, geopolitics, ambassador, european union, brexit',
        terms:
          'ukraine, russia, china, israel, gaza, iran, taiwan, north korea, middle east, kremlin, beijing, ' +
          'zelensky, putin, xi jinping, netanyahu, hamas, hezbollah, eu, foreign minister',
      },
      {
        name: 'Law & Justice',
        description: 'Courts, trials, lawsuits and law enforcement policy.',
        strong:
          'supreme court, court ruling, lawsuit, trial, judge, verdict, indictment, attorney general, doj, ' +
          'department of justice, prosecutor, jury, sentencing, civil rights, constitution, antitrust',
        terms: 'court, lawyer, legal, charge, guilty, plea, appeal, ftc, settlement',
      },
      {
        name: 'Military & Defense',
        description: 'Armed forces, weapons and wars.',
        strong:
          'military, defense, defence, army, navy, air force, pentagon, missile, drone strike, troop, warship, ' +
          'fighter jet, nuclear weapon, airstrike, war, invasion, soldier, ministry of defence',
        terms: 'weapon, ammunition, artillery, tank, conflict, frontline, offensive, drone',
      },
    ],
  },
  {
    name: 'Health',
    description: 'Public health, medicine, wellbeing and health systems.',
    children: [
      {
        name: 'Public Health & Disease',
        description: 'Outbreaks, infectious disease and vaccination.',
        strong:
          'covid, covid 19, coronavirus, pandemic, epidemic, outbreak, vaccine, vaccination, flu, influenza, ' +
          'bird flu, h5n1, measles, mpox, ebola, cdc, world health organization, cholera, dengue, malaria, ' +
          'public health',
        terms:
          'virus, infection, hospitalization, booster, quarantine, variant, disease, symptom, contagious',
      },
      {
        name: 'Mental Health',
        description: 'Mental health, wellbeing and psychological care.',
        strong:
          'mental health, anxiety, depression, therapy, therapist, burnout, ptsd, adhd, autism, ' +
          'suicide prevention, mindfulness, wellbeing, loneliness, psychiatrist, self care',
        terms: 'stress, counseling, counselling, mental illness, bipolar, ocd, panic attack',
      },
      {
        name: 'Medicine & Pharma',
        description: 'Treatments, drugs, clinical research and the pharmaceutical industry.',
        strong:
          'fda, drug approval, clinical trial, pharma, pharmaceutical, ozempic, wegovy, glp 1, cancer, ' +
          'gene therapy, pfizer, moderna, eli lilly, novo nordisk, medication, prescription drug, surgery',
        terms:
          'drug, treatment, patient, hospital, doctor, nurse, alzheimer, diabetes, heart disease, stroke, ' +
          'antibiotic, diagnosis, medical',
      },
      {
        name: 'Fitness & Nutrition',
        description: 'Exercise, diet and healthy living.',
        strong:
          'fitness, workout, gym, exercise, weight loss, nutrition, diet, protein, yoga, pilates, ' +
          'strength training, keto, intermittent fasting, vitamin, supplement',
        terms: 'healthy eating, cardio, muscle, sleep, calorie, running, step count',
      },
      {
        name: 'Healthcare System',
        description: 'Health insurance, hospitals and health policy.',
        strong:
          'healthcare, health care, health insurance, medicare, medicaid, nhs, obamacare, nurses strike, ' +
          'doctors strike, waiting list, health system',
        terms: 'insurance, premium, hospital bed, emergency room, gp',
      },
    ],
  },
  {
    name: 'Science',
    description: 'Research and discovery across the natural sciences.',
    children: [
      {
        name: 'Space',
        description: 'Spaceflight, astronomy and the universe.',
        strong:
          'nasa, spacex, space, rocket, astronaut, mars, moon, lunar, iss, international space station, ' +
          'satellite, telescope, james webb, jwst, hubble, asteroid, comet, galaxy, black hole, exoplanet, ' +
          'starship, falcon 9, artemis, esa, isro, solar eclipse, eclipse, aurora, northern lights, ' +
          'meteor shower, blue origin',
        terms:
          'orbit, planet, cosmos, astronomy, astrophysics, spacecraft, rover, solar system, universe, launch',
      },
      {
        name: 'Physics & Chemistry',
        description: 'Physics, chemistry and materials.',
        strong:
          'physics, quantum, particle physics, cern, large hadron collider, higgs, nuclear fusion, ' +
          'superconductor, chemistry, chemical reaction, molecule, periodic table, gravitational wave',
        terms: 'experiment, laser, atom, electron, photon, relativity, materials science',
      },
      {
        name: 'Biology & Genetics',
        description: 'Life sciences, genetics and neuroscience.',
        strong:
          'biology, genetics, dna, genome, gene editing, crispr, evolution, stem cell, microbiome, ' +
          'neuroscience, protein folding, alphafold',
        terms: 'organism, mutation, ecology, bacteria, neuron, cell, species, brain',
      },
      {
        name: 'Archaeology & History',
        description: 'Archaeology, palaeontology and historical discoveries.',
        strong:
          'archaeology, archaeologist, fossil, dinosaur, excavation, pyramid, tomb, artifact, artefact, ' +
          'prehistoric, paleontology, palaeontology, shipwreck',
        terms: 'history, historian, ancient, skeleton, ruin, roman',
      },
      {
        name: 'Research',
        description: 'Scientific studies, papers and the research community.',
        strong: 'scientific study, peer review, research paper, preprint, arxiv, nobel prize',
        terms: 'study, scientist, researcher, research, journal, discovery, university study',
      },
    ],
  },
  {
    name: 'Entertainment',
    description: 'Film, television, music, books and the people in them.',
    children: [
      {
        name: 'Movies',
        description: 'Films, studios, box office and awards.',
        strong:
          'movie, film, box office, trailer, cinema, hollywood, oscars, academy award, marvel, mcu, pixar, ' +
          'sequel, premiere, blockbuster, cannes, sundance, golden globe, film festival',
        terms:
          'actor, actress, cast, screenplay, studio, warner bros, universal, a24, imax, director, disney',
      },
      {
        name: 'TV & Streaming',
        description: 'Television series and streaming services.',
        strong:
          'tv show, tv series, netflix, hbo, disney plus, hulu, prime video, apple tv, streaming service, ' +
          'season finale, episode, sitcom, reality tv, emmys, showrunner, peacock',
        terms: 'tv, series, season, spoiler, finale, binge, streaming',
      },
      {
        name: 'Music',
        description: 'Artists, releases, tours and festivals.',
        strong:
          'music, album, song, concert, tour, grammys, billboard, spotify, rapper, singer, band, coachella, ' +
          'glastonbury, eurovision, setlist, music video, taylor swift, beyonce, k pop, kpop, bts, eras tour',
        terms:
          'track, lyrics, chart, hip hop, rap, pop, rock, jazz, dj, vinyl, playlist, mixtape, single, festival',
      },
      {
        name: 'Celebrities',
        description: 'Famous people, their lives and public appearances.',
        strong:
          'celebrity, red carpet, met gala, paparazzi, gossip, royal family, prince harry, meghan markle, ' +
          'kardashian, king charles, kate middleton',
        terms: 'star, famous, rumor, rumour, divorce, engagement, split',
      },
      {
        name: 'Books & Publishing',
        description: 'Books, authors and the publishing industry.',
        strong:
          'book, novel, author, bestseller, booktok, publishing, publisher, booker prize, memoir, fiction, ' +
          'poetry, audiobook, kindle',
        terms: 'reading, writer, library, chapter',
      },
      {
        name: 'Anime & Comics',
        description: 'Anime, manga and comics.',
        strong:
          'anime, manga, comics, comic book, marvel comics, dc comics, one piece, crunchyroll, studio ghibli, ' +
          'cosplay, webtoon, comic con',
        terms: 'otaku, shonen, graphic novel',
      },
    ],
  },
  {
    name: 'Sports',
    description: 'Competitive sport: teams, athletes, fixtures and results.',
    children: [
      {
        name: 'Football',
        description: 'Association football (soccer): leagues, clubs, players and tournaments.',
        strong:
          'soccer, premier league, champions league, la liga, serie a, bundesliga, ligue 1, fifa, uefa, ' +
          'world cup, mls, arsenal, chelsea, liverpool, manchester united, manchester city, man utd, man city, ' +
          'tottenham, real madrid, barcelona, bayern munich, psg, juventus, inter milan, ac milan, messi, ' +
          'ronaldo, haaland, mbappe, striker, goalkeeper, penalty kick, transfer window, fa cup, ballon d or, ' +
          'euro 2024, europa league',
        terms:
          'football, goal, midfielder, defender, derby, hat trick, relegation, kickoff, clean sheet, offside, ' +
          'red card, yellow card, pitch, stadium, league table, bukayo saka, harry kane, var, manager',
      },
      {
        name: 'American Football',
        description: 'The NFL and college football.',
        strong:
          'nfl, super bowl, quarterback, touchdown, college football, kansas city chiefs, patrick mahomes, ' +
          'philadelphia eagles, dallas cowboys, patriots, 49ers, green bay packers, nfl draft, fantasy football, ' +
          'wide receiver, travis kelce, tom brady',
        terms:
          'football, field goal, interception, linebacker, running back, chiefs, eagles, cowboys, packers',
      },
      {
        name: 'Basketball',
        description: 'The NBA, WNBA and college basketball.',
        strong:
          'nba, basketball, wnba, lakers, celtics, golden state warriors, lebron james, lebron, stephen curry, ' +
          'nba finals, march madness, three pointer, point guard, knicks, chicago bulls, nba draft, ' +
          'caitlin clark, wembanyama',
        terms: 'dunk, rebound, playoff, all star, mvp, warriors',
      },
      {
        name: 'Baseball',
        description: 'MLB and baseball worldwide.',
        strong:
          'mlb, baseball, world series, yankees, dodgers, home run, pitcher, red sox, shohei ohtani, ohtani, ' +
          'batting average',
        terms: 'bullpen, strikeout, spring training, mets, cubs, inning',
      },
      {
        name: 'Cricket',
        description: 'Test, one-day and T20 cricket.',
        strong: 'cricket, ipl, test match, odi, t20, ashes, bcci, wicket, batsman, bowler, virat kohli',
        terms: 'innings, run chase, century, all rounder',
      },
      {
        name: 'Tennis',
        description: 'The tours and the Grand Slams.',
        strong:
          'tennis, wimbledon, us open, french open, roland garros, australian open, atp, wta, grand slam, ' +
          'djokovic, nadal, federer, alcaraz, jannik sinner, serena williams',
        terms: 'match point, tiebreak, seed',
      },
      {
        name: 'Golf',
        description: 'Professional golf.',
        strong:
          'golf, pga, pga tour, liv golf, masters tournament, ryder cup, tiger woods, open championship, ' +
          'golfer, birdie, hole in one',
        terms: 'fairway, putt, caddie',
      },
      {
        name: 'Motorsport',
        description: 'Formula 1, NASCAR, IndyCar, MotoGP and rallying.',
        strong:
          'formula 1, formula one, f1, grand prix, nascar, indycar, motogp, verstappen, lewis hamilton, ' +
          'red bull racing, le mans, pole position, pit stop, mclaren',
        terms: 'race, racing, driver, lap, qualifying, circuit, podium, rally, ferrari',
      },
      {
        name: 'Combat Sports',
        description: 'Boxing, MMA and professional wrestling.',
        strong:
          'ufc, mma, boxing, boxer, heavyweight, knockout, fight night, wrestling, wwe, title fight, ' +
          'jake paul, conor mcgregor',
        terms: 'fight, bout, belt, undercard',
      },
      {
        name: 'Ice Hockey',
        description: 'The NHL and international ice hockey.',
        strong: 'nhl, hockey, ice hockey, stanley cup, puck, maple leafs, oilers',
        terms: 'power play, rink, goalie',
      },
      {
        name: 'Olympics & Athletics',
        description: 'Olympic and Paralympic Games, athletics and other Olympic sports.',
        strong:
          'olympics, olympic games, paralympics, olympic, gold medal, ioc, athletics, track and field, ' +
          'marathon, sprinter, world athletics, usain bolt, gymnastics, simone biles, medal table',
        terms: 'medal, athlete, world record, relay, swimming',
      },
    ],
  },
  {
    name: 'Lifestyle',
    description: 'Home, family, pets, relationships and celebrations.',
    children: [
      {
        name: 'Home & Garden',
        description: 'Homes, interiors, DIY and gardening.',
        strong:
          'home decor, interior design, gardening, garden, diy, home improvement, renovation, ikea, furniture, ' +
          'houseplant, cleaning tip',
        terms: 'kitchen, bathroom, backyard, plant, decor, lawn',
      },
      {
        name: 'Parenting & Family',
        description: 'Parents, children and family life.',
        strong:
          'parenting, toddler, pregnancy, childcare, motherhood, fatherhood, newborn, daycare, parent, ' +
          'family life',
        terms: 'baby, kid, children, child, family, mom, dad, mum',
      },
      {
        name: 'Pets & Animals',
        description: 'Pets and the animals people live with.',
        strong:
          'pet, dog, puppy, cat, kitten, veterinarian, pet food, rescue dog, animal shelter, adopt a pet',
        terms: 'animal, breed, paw, vet',
      },
      {
        name: 'Relationships & Dating',
        description: 'Dating, relationships and weddings.',
        strong:
          'dating, relationship, marriage, wedding, dating app, tinder, bumble, hinge, breakup, ' +
          "valentine's day, romance",
        terms: 'partner, boyfriend, girlfriend, husband, wife, love',
      },
      {
        name: 'Holidays & Celebrations',
        description: 'Holidays, festivals and celebrations.',
        strong:
          "christmas, halloween, thanksgiving, easter, new year's eve, happy new year, diwali, ramadan, eid, " +
          "hanukkah, lunar new year, mother's day, father's day, holiday season, birthday",
        terms: 'holiday, celebration, gift, party, festive, fireworks',
      },
    ],
  },
  {
    name: 'Travel',
    description: 'Getting around and going places.',
    children: [
      {
        name: 'Air Travel',
        description: 'Airlines, airports and flying.',
        strong:
          'airline, flight, airport, delta air lines, united airlines, american airlines, ryanair, easyjet, ' +
          'lufthansa, emirates, airbus, faa, tsa, flight delay, cancelled flight, air traffic control, layover, ' +
          'frequent flyer, jet lag, aviation',
        terms: 'plane, pilot, passenger, boarding, runway, jet, boeing',
      },
      {
        name: 'Destinations & Tourism',
        description: 'Places to go, tourism and trip planning.',
        strong:
          'travel, tourism, tourist, vacation, travel guide, backpacking, itinerary, sightseeing, bucket list, ' +
          'overtourism, passport, road trip, travel tip',
        terms: 'trip, destination, city break, landmark, beach, visa',
      },
      {
        name: 'Hotels & Lodging',
        description: 'Hotels, rentals and places to stay.',
        strong:
          'hotel, airbnb, booking com, resort, hostel, marriott, hilton, accommodation, vacation rental, ' +
          'short term rental',
        terms: 'room, stay, check in, suite',
      },
      {
        name: 'Cruises & Rail',
        description: 'Cruises, trains and ferries.',
        strong:
          'cruise, cruise ship, royal caribbean, carnival cruise, train travel, amtrak, eurostar, ' +
          'high speed rail, railway, ferry',
        terms: 'cabin, port, train, station, rail',
      },
    ],
  },
  {
    name: 'Food & Drink',
    description: 'Cooking, eating out and drinks.',
    children: [
      {
        name: 'Recipes & Cooking',
        description: 'Home cooking, baking and recipes.',
        strong:
          'recipe, cooking, baking, chef, cuisine, air fryer, meal prep, vegan, vegetarian, gluten free, ' +
          'sourdough, pasta, pizza, barbecue, bbq, apple pie, dessert, home cooking',
        terms:
          'ingredient, kitchen, oven, bake, flavor, flavour, delicious, tasty, food, dish, sauce, dinner, ' +
          'breakfast, lunch, cook',
      },
      {
        name: 'Restaurants & Dining',
        description: 'Restaurants, fast food and delivery.',
        strong:
          'restaurant, michelin, michelin star, fast food, mcdonald, starbucks, chipotle, burger king, kfc, ' +
          'food delivery, doordash, uber eats, takeout, cafe, brunch, food truck',
        terms: 'waiter, reservation, foodie, menu, dining',
      },
      {
        name: 'Beverages',
        description: 'Coffee, tea, beer, wine and other drinks.',
        strong:
          'coffee, tea, beer, wine, cocktail, whiskey, whisky, brewery, winery, craft beer, soda, energy drink, ' +
          'coca cola, pepsi, espresso, latte, matcha, sommelier, non alcoholic',
        terms: 'drink, bar, pub, bottle, brew',
      },
      {
        name: 'Food Industry',
        description: 'Groceries, food prices, recalls and agriculture.',
        strong:
          'food price, grocery, supermarket, food recall, food safety, salmonella, listeria, e coli, ' +
          'food inflation, food waste, agriculture',
        terms: 'farmer, crop, harvest, produce, egg, meat, farming',
      },
    ],
  },
  {
    name: 'Gaming',
    description: 'Video games, platforms and competitive gaming.',
    children: [
      {
        name: 'Consoles',
        description: 'PlayStation, Xbox, Nintendo and console gaming.',
        strong:
          'playstation, ps5, ps4, xbox, nintendo, nintendo switch, switch 2, console, game pass, ' +
          'xbox series x, dualsense, nintendo direct',
        terms: 'controller, firmware, exclusive',
      },
      {
        name: 'PC Gaming',
        description: 'PC games, Steam and gaming hardware.',
        strong:
          'pc gaming, steam, valve, epic games, gaming pc, graphics card, rtx, geforce, radeon, modding, ' +
          'minecraft, counter strike, cs2, dota 2, world of warcraft, blizzard, elden ring, cyberpunk 2077, ' +
          "baldur's gate, steam deck",
        terms: 'fps, frame rate, patch notes, early access, indie game, mod',
      },
      {
        name: 'Mobile Gaming',
        description: 'Games on phones and tablets.',
        strong:
          'mobile game, mobile gaming, pokemon go, candy crush, genshin impact, clash of clans, gacha, ' +
          'free to play, roblox',
        terms: 'in app purchase, mobile',
      },
      {
        name: 'Esports',
        description: 'Competitive gaming, tournaments, teams and streamers.',
        strong:
          'esports, e sports, twitch, streamer, valorant, league of legends, pro player, faker, fnatic, ' +
          'team liquid, evo',
        terms: 'tournament, championship, bracket, caster, scrim, stream',
      },
      {
        name: 'Game Releases & Industry',
        description: 'New games, studios, publishers and the games business.',
        strong:
          'video game, gaming, gamer, game trailer, game release, gta, gta 6, grand theft auto, ' +
          'rockstar games, ubisoft, ea sports, activision, the game awards, game developer, gamedev, ' +
          'summer game fest, gamescom, fortnite, pokemon',
        terms: 'dlc, expansion, remaster, open world, rpg, shooter, release date',
      },
    ],
  },
  {
    name: 'Environment & Climate',
    description: 'Climate, energy, nature and the weather.',
    children: [
      {
        name: 'Climate Change',
        description: 'Global warming, emissions and climate policy.',
        strong:
          'climate change, climate, global warming, climate crisis, carbon emission, greenhouse gas, net zero, ' +
          'cop28, cop29, cop30, paris agreement, co2, climate action, ipcc, carbon capture, fossil fuel, ' +
          'decarbonization, decarbonisation, greta thunberg',
        terms:
          'emission, carbon, hottest year, sea level rise, glacier, arctic, ice sheet, temperature record',
      },
      {
        name: 'Energy',
        description: 'Oil, gas, power, renewables and the energy transition.',
        strong:
          'renewable energy, renewables, solar power, solar panel, wind power, wind farm, offshore wind, ' +
          'clean energy, green energy, battery storage, energy transition, hydrogen, geothermal, nuclear power, ' +
          'heat pump, oil price, opec, energy crisis, power grid, electricity price, energy bill',
        terms: 'energy, electricity, grid, power plant, utility, barrel, crude, oil, solar, wind turbine',
      },
      {
        name: 'Conservation & Wildlife',
        description: 'Nature, biodiversity and protecting wildlife.',
        strong:
          'conservation, wildlife, endangered species, biodiversity, deforestation, rainforest, ' +
          'amazon rainforest, extinction, poaching, national park, coral reef, whale, elephant, wwf, habitat, ' +
          'rewilding',
        terms: 'species, forest, ocean, marine, bee, nature',
      },
      {
        name: 'Pollution & Waste',
        description: 'Air, water and plastic pollution, waste and recycling.',
        strong:
          'pollution, air pollution, air quality, plastic pollution, microplastic, recycling, sewage, ' +
          'oil spill, smog, pfas, contamination, water pollution, landfill',
        terms: 'plastic, toxic, chemical, waste',
      },
      {
        name: 'Weather',
        description: 'Everyday weather and forecasts.',
        strong:
          'weather, forecast, weather forecast, met office, national weather service, nws, meteorologist, ' +
          'cold snap, frost, snowfall',
        terms: 'rain, snow, sunny, cloudy, humidity, temperature, degree, wind',
      },
    ],
  },
  {
    name: 'Crisis & Safety',
    description: 'Disasters, emergencies, threats to public safety and humanitarian crises.',
    children: [
      {
        name: 'Natural Disasters',
        description: 'Earthquakes, tsunamis, volcanoes, wildfires and landslides.',
        strong:
          'earthquake, quake, aftershock, tsunami, volcano, volcanic eruption, eruption, wildfire, bushfire, ' +
          'forest fire, landslide, mudslide, avalanche, seismic, richter scale, usgs, drought, ' +
          'natural disaster, tsunami warning',
        terms: 'epicenter, epicentre, tremor, magnitude, evacuation, disaster, fema, emergency declaration',
      },
      {
        name: 'Severe Weather & Flooding',
        description: 'Storms, floods, extreme heat and cold.',
        strong:
          'hurricane, typhoon, cyclone, tornado, flood, flooding, flash flood, flood warning, severe weather, ' +
          'blizzard, heatwave, heat wave, extreme heat, hailstorm, storm surge, tropical storm, ' +
          'thunderstorm warning, storm',
        terms: 'evacuation order, landfall, rainfall, wind gust, red warning, amber warning, river level',
      },
      {
        name: 'Accidents & Emergencies',
        description: 'Explosions, fires, crashes, collapses and rescues.',
        strong:
          'explosion, building collapse, plane crash, train derailment, derailment, car crash, ' +
          'emergency services, firefighter, search and rescue, death toll, chemical spill, gas leak, ' +
          'bridge collapse, casualty',
        terms:
          'blast, fire, crash, accident, rescue, injured, killed, emergency, paramedic, ambulance, survivor',
      },
      {
        name: 'Crime & Public Safety',
        description: 'Violent crime, attacks, policing and public safety threats.',
        strong:
          'shooting, mass shooting, gunman, stabbing, terror attack, terrorism, hostage, murder, homicide, ' +
          'manhunt, active shooter, bomb threat, riot',
        terms:
          'police, arrest, suspect, crime, victim, law enforcement, fbi, sheriff, robbery, kidnapping, attack',
      },
      {
        name: 'Outages & Disruptions',
        description: 'Power, internet and service outages.',
        strong:
          'outage, power outage, blackout, internet outage, service outage, downdetector, server down, ' +
          'network outage, system failure, it outage',
        terms: 'disruption, restored, offline, service disruption',
      },
      {
        name: 'Humanitarian Crises',
        description: 'Displacement, famine and humanitarian aid.',
        strong:
          'humanitarian crisis, refugee, displaced, famine, humanitarian aid, unhcr, red cross, unicef, ' +
          'aid convoy, food shortage, migrant crisis, asylum seeker',
        terms: 'aid, shelter, relief, donation',
      },
    ],
  },
  {
    name: 'Education',
    description: 'Schools, universities and learning.',
    children: [
      {
        name: 'Higher Education',
        description: 'Universities, colleges, students and research careers.',
        strong:
          'university, college, campus, tuition, admission, harvard, oxford university, cambridge university, ' +
          'ivy league, graduate, phd, professor, academia, fafsa, commencement',
        terms: 'student, faculty, lecture, semester, dorm, degree',
      },
      {
        name: 'Schools',
        description: 'Primary and secondary schools, teachers and pupils.',
        strong:
          'school, teacher, k 12, classroom, curriculum, school board, headteacher, homework, gcse, a level, ' +
          'exam result, standardized testing, ofsted, education policy, pupil',
        terms: 'education, grade, learning loss, student, principal',
      },
      {
        name: 'Online Learning',
        description: 'EdTech, online courses and skills training.',
        strong:
          'edtech, online learning, e learning, mooc, coursera, udemy, duolingo, khan academy, online course, ' +
          'remote learning, coding bootcamp, upskilling',
        terms: 'course, tutorial, lesson, certification',
      },
    ],
  },
  {
    name: 'Automotive',
    description: 'Cars, the car industry and the future of driving.',
    children: [
      {
        name: 'Electric Vehicles',
        description: 'Electric cars, charging and batteries.',
        strong:
          'electric vehicle, electric car, ev, tesla, model 3, model y, cybertruck, rivian, lucid motors, byd, ' +
          'charging station, ev charging, supercharger, plug in hybrid, range anxiety, polestar',
        terms: 'charging, battery, range, kwh, hybrid',
      },
      {
        name: 'Autonomous Vehicles',
        description: 'Self-driving cars and robotaxis.',
        strong:
          'self driving, autonomous vehicle, autonomous driving, robotaxi, waymo, full self driving, fsd, ' +
          'autopilot, lidar, driverless',
        terms: 'autonomy, sensor',
      },
      {
        name: 'Car Industry',
        description: 'Carmakers, models, sales and recalls.',
        strong:
          'automaker, carmaker, car sale, ford, general motors, toyota, volkswagen, stellantis, honda, hyundai, ' +
          'bmw, mercedes benz, porsche, car price, uaw, auto industry, dealership, vehicle recall',
        terms: 'car, vehicle, suv, truck, pickup, sedan, engine, recall, gm, vw',
      },
    ],
  },
  {
    name: 'Fashion & Beauty',
    description: 'Clothing, style, beauty and luxury.',
    children: [
      {
        name: 'Fashion & Apparel',
        description: 'Clothing, designers, fashion weeks and style.',
        strong:
          'fashion, fashion week, runway, outfit, ootd, clothing, apparel, streetwear, zara, h&m, uniqlo, vogue, ' +
          'couture, denim',
        terms: 'dress, style, wear, jacket, shoe, designer, collection',
      },
      {
        name: 'Beauty & Skincare',
        description: 'Makeup, skincare, hair and fragrance.',
        strong:
          'beauty, skincare, makeup, cosmetics, sephora, ulta, fenty, serum, moisturizer, sunscreen, spf, ' +
          'haircare, fragrance, perfume, nail art, lipstick, grwm',
        terms: 'glow, routine, hair, skin, nail',
      },
      {
        name: 'Luxury',
        description: 'Luxury houses, goods and the luxury market.',
        strong:
          'luxury, louis vuitton, lvmh, gucci, chanel, hermes, prada, dior, rolex, cartier, luxury brand, ' +
          'haute couture, burberry, balenciaga',
        terms: 'designer bag, handbag, jewelry, jewellery',
      },
      {
        name: 'Sneakers',
        description: 'Sneaker releases, brands and resale.',
        strong:
          'sneaker, nike, adidas, air jordan, yeezy, new balance, sneakerhead, sneaker drop, snkrs, stockx',
        terms: 'jordan, resale, kicks, drop',
      },
    ],
  },
  {
    name: 'General',
    description: 'Culture, viral moments, belief and everything without a better home.',
    children: [
      {
        name: 'Other',
        description: 'Trends that fit no other category.',
      },
      {
        name: 'Culture',
        description: 'Arts, museums, theatre and heritage.',
        strong:
          'culture, art, museum, exhibition, gallery, theater, theatre, broadway, heritage, opera, ballet',
        terms: 'artist, painting, sculpture, tradition, language',
      },
      {
        name: 'Viral & Memes',
        description: 'Memes, viral posts and internet culture.',
        strong: 'meme, viral, trending, viral video, internet culture, going viral, tiktok trend',
        terms: 'funny, hilarious, reaction, prank, joke, challenge',
      },
      {
        name: 'Religion & Belief',
        description: 'Faiths, religious institutions and leaders.',
        strong:
          'religion, church, pope, vatican, catholic, christianity, islam, muslim, jewish, judaism, hindu, ' +
          'buddhist, mosque, synagogue, bible, quran, pope francis, archbishop',
        terms: 'god, faith, prayer, spiritual, worship, sermon, temple',
      },
    ],
  },
];

/** A lookup table as a Map, not an object: a hint such as `constructor` or `__proto__` must find nothing. */
function table(entries: Record<string, string>): ReadonlyMap<string, string> {
  return new Map(Object.entries(entries));
}

// Section names, feed categories and other everyday labels a source may send as a category hint.
const ALIASES = table({
  tech: 'Technology',
  technology: 'Technology',
  science: 'Science',
  'science and technology': 'Technology',
  'artificial intelligence': 'Technology/AI',
  security: 'Technology/Cybersecurity',
  business: 'Business & Finance',
  finance: 'Business & Finance',
  money: 'Business & Finance/Personal Finance',
  markets: 'Business & Finance/Markets & Stocks',
  economy: 'Business & Finance/Economy',
  economics: 'Business & Finance/Economy',
  crypto: 'Business & Finance/Crypto',
  politics: 'Politics & Government',
  government: 'Politics & Government',
  world: 'Politics & Government/International Relations',
  'world news': 'Politics & Government/International Relations',
  worldnews: 'Politics & Government/International Relations',
  international: 'Politics & Government/International Relations',
  law: 'Politics & Government/Law & Justice',
  health: 'Health',
  wellness: 'Health/Fitness & Nutrition',
  entertainment: 'Entertainment',
  film: 'Entertainment/Movies',
  movies: 'Entertainment/Movies',
  tv: 'Entertainment/TV & Streaming',
  television: 'Entertainment/TV & Streaming',
  music: 'Entertainment/Music',
  books: 'Entertainment/Books & Publishing',
  sport: 'Sports',
  sports: 'Sports',
  football: 'Sports/Football',
  soccer: 'Sports/Football',
  lifestyle: 'Lifestyle',
  travel: 'Travel',
  food: 'Food & Drink',
  'food and drink': 'Food & Drink',
  gaming: 'Gaming',
  games: 'Gaming',
  'video games': 'Gaming',
  environment: 'Environment & Climate',
  climate: 'Environment & Climate/Climate Change',
  energy: 'Environment & Climate/Energy',
  weather: 'Environment & Climate/Weather',
  disaster: 'Crisis & Safety/Natural Disasters',
  disasters: 'Crisis & Safety/Natural Disasters',
  crime: 'Crisis & Safety/Crime & Public Safety',
  education: 'Education',
  autos: 'Automotive',
  auto: 'Automotive',
  cars: 'Automotive',
  fashion: 'Fashion & Beauty/Fashion & Apparel',
  style: 'Fashion & Beauty',
  beauty: 'Fashion & Beauty/Beauty & Skincare',
  culture: 'General/Culture',
  arts: 'General/Culture',
  religion: 'General/Religion & Belief',
  memes: 'General/Viral & Memes',
});

// Subreddits whose topic is clear from the name; others are tried as names, aliases and lexicon terms.
const SUBREDDITS = table({
  machinelearning: 'Technology/AI',
  artificial: 'Technology/AI',
  localllama: 'Technology/AI',
  openai: 'Technology/AI',
  chatgpt: 'Technology/AI',
  singularity: 'Technology/AI',
  netsec: 'Technology/Cybersecurity',
  cybersecurity: 'Technology/Cybersecurity',
  programming: 'Technology/Software & Development',
  webdev: 'Technology/Software & Development',
  javascript: 'Technology/Software & Development',
  python: 'Technology/Software & Development',
  linux: 'Technology/Software & Development',
  apple: 'Technology/Consumer Electronics',
  android: 'Technology/Consumer Electronics',
  gadgets: 'Technology/Consumer Electronics',
  iphone: 'Technology/Consumer Electronics',
  hardware: 'Technology/Semiconductors & Hardware',
  futurology: 'Technology',
  stocks: 'Business & Finance/Markets & Stocks',
  investing: 'Business & Finance/Markets & Stocks',
  wallstreetbets: 'Business & Finance/Markets & Stocks',
  cryptocurrency: 'Business & Finance/Crypto',
  bitcoin: 'Business & Finance/Crypto',
  ethereum: 'Business & Finance/Crypto',
  personalfinance: 'Business & Finance/Personal Finance',
  frugal: 'Business & Finance/Personal Finance',
  realestate: 'Business & Finance/Real Estate',
  startups: 'Business & Finance/Startups & Venture Capital',
  entrepreneur: 'Business & Finance/Startups & Venture Capital',
  economics: 'Business & Finance/Economy',
  politics: 'Politics & Government',
  worldnews: 'Politics & Government/International Relations',
  geopolitics: 'Politics & Government/International Relations',
  law: 'Politics & Government/Law & Justice',
  news: 'General/Other',
  health: 'Health',
  medicine: 'Health/Medicine & Pharma',
  covid19: 'Health/Public Health & Disease',
  fitness: 'Health/Fitness & Nutrition',
  nutrition: 'Health/Fitness & Nutrition',
  mentalhealth: 'Health/Mental Health',
  space: 'Science/Space',
  astronomy: 'Science/Space',
  physics: 'Science/Physics & Chemistry',
  chemistry: 'Science/Physics & Chemistry',
  biology: 'Science/Biology & Genetics',
  archaeology: 'Science/Archaeology & History',
  movies: 'Entertainment/Movies',
  television: 'Entertainment/TV & Streaming',
  netflix: 'Entertainment/TV & Streaming',
  music: 'Entertainment/Music',
  hiphopheads: 'Entertainment/Music',
  popheads: 'Entertainment/Music',
  books: 'Entertainment/Books & Publishing',
  anime: 'Entertainment/Anime & Comics',
  manga: 'Entertainment/Anime & Comics',
  comicbooks: 'Entertainment/Anime & Comics',
  soccer: 'Sports/Football',
  football: 'Sports/Football',
  premierleague: 'Sports/Football',
  gunners: 'Sports/Football',
  reddevils: 'Sports/Football',
  liverpoolfc: 'Sports/Football',
  nfl: 'Sports/American Football',
  cfb: 'Sports/American Football',
  fantasyfootball: 'Sports/American Football',
  nba: 'Sports/Basketball',
  collegebasketball: 'Sports/Basketball',
  baseball: 'Sports/Baseball',
  mlb: 'Sports/Baseball',
  cricket: 'Sports/Cricket',
  tennis: 'Sports/Tennis',
  golf: 'Sports/Golf',
  formula1: 'Sports/Motorsport',
  nascar: 'Sports/Motorsport',
  mma: 'Sports/Combat Sports',
  boxing: 'Sports/Combat Sports',
  squaredcircle: 'Sports/Combat Sports',
  hockey: 'Sports/Ice Hockey',
  nhl: 'Sports/Ice Hockey',
  olympics: 'Sports/Olympics & Athletics',
  running: 'Sports/Olympics & Athletics',
  homeimprovement: 'Lifestyle/Home & Garden',
  gardening: 'Lifestyle/Home & Garden',
  parenting: 'Lifestyle/Parenting & Family',
  dogs: 'Lifestyle/Pets & Animals',
  cats: 'Lifestyle/Pets & Animals',
  aww: 'Lifestyle/Pets & Animals',
  relationships: 'Lifestyle/Relationships & Dating',
  relationship_advice: 'Lifestyle/Relationships & Dating',
  dating: 'Lifestyle/Relationships & Dating',
  travel: 'Travel/Destinations & Tourism',
  solotravel: 'Travel/Destinations & Tourism',
  aviation: 'Travel/Air Travel',
  flights: 'Travel/Air Travel',
  cruise: 'Travel/Cruises & Rail',
  food: 'Food & Drink/Recipes & Cooking',
  cooking: 'Food & Drink/Recipes & Cooking',
  recipes: 'Food & Drink/Recipes & Cooking',
  baking: 'Food & Drink/Recipes & Cooking',
  coffee: 'Food & Drink/Beverages',
  beer: 'Food & Drink/Beverages',
  wine: 'Food & Drink/Beverages',
  gaming: 'Gaming',
  games: 'Gaming/Game Releases & Industry',
  pcgaming: 'Gaming/PC Gaming',
  steam: 'Gaming/PC Gaming',
  ps5: 'Gaming/Consoles',
  playstation: 'Gaming/Consoles',
  xbox: 'Gaming/Consoles',
  nintendoswitch: 'Gaming/Consoles',
  nintendo: 'Gaming/Consoles',
  mobilegaming: 'Gaming/Mobile Gaming',
  esports: 'Gaming/Esports',
  leagueoflegends: 'Gaming/Esports',
  globaloffensive: 'Gaming/Esports',
  climate: 'Environment & Climate/Climate Change',
  environment: 'Environment & Climate',
  energy: 'Environment & Climate/Energy',
  weather: 'Environment & Climate/Weather',
  earthquake: 'Crisis & Safety/Natural Disasters',
  earthquakes: 'Crisis & Safety/Natural Disasters',
  tropicalweather: 'Crisis & Safety/Severe Weather & Flooding',
  education: 'Education',
  college: 'Education/Higher Education',
  teachers: 'Education/Schools',
  electricvehicles: 'Automotive/Electric Vehicles',
  teslamotors: 'Automotive/Electric Vehicles',
  selfdrivingcars: 'Automotive/Autonomous Vehicles',
  cars: 'Automotive/Car Industry',
  fashion: 'Fashion & Beauty/Fashion & Apparel',
  malefashionadvice: 'Fashion & Beauty/Fashion & Apparel',
  femalefashionadvice: 'Fashion & Beauty/Fashion & Apparel',
  skincareaddiction: 'Fashion & Beauty/Beauty & Skincare',
  makeupaddiction: 'Fashion & Beauty/Beauty & Skincare',
  sneakers: 'Fashion & Beauty/Sneakers',
  memes: 'General/Viral & Memes',
  funny: 'General/Viral & Memes',
  todayilearned: 'General/Culture',
  art: 'General/Culture',
  christianity: 'General/Religion & Belief',
  religion: 'General/Religion & Belief',
});

// ---------------------------------------------------------------------------------------------------------
// The taxonomy as data

function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function buildCategories(): Category[] {
  const out: Category[] = [];
  for (const top of TAXONOMY) {
    out.push({ name: top.name, slug: slugify(top.name), description: top.description, parent: null });
    for (const child of top.children) {
      const name = `${top.name}/${child.name}`;
      out.push({ name, slug: slugify(name), description: child.description, parent: top.name });
    }
  }
  return out;
}

/** Every category, each parent followed by its children, in a fixed order. */
export const CATEGORIES: readonly Readonly<Category>[] = Object.freeze(
  buildCategories().map((c) => Object.freeze(c)),
);

const INDEX_BY_NAME = new Map<string, number>();
const INDEX_BY_SLUG = new Map<string, number>();
CATEGORIES.forEach((c, i) => {
  INDEX_BY_NAME.set(c.name.toLowerCase(), i);
  INDEX_BY_SLUG.set(c.slug, i);
});

function indexOf(value: string): number | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.trim().toLowerCase();
  if (lower === '') return undefined;
  // Spacing is forgiven (`technology / ai`, `crisis &safety`); spelling is not.
  const name = lower
    .replace(/\s+/g, ' ')
    .replace(/\s*\/\s*/g, '/')
    .replace(/\s*&\s*/g, ' & ');
  return INDEX_BY_NAME.get(name) ?? INDEX_BY_SLUG.get(lower);
}

/** The category named by its path or slug, case-insensitively (`technology/ai`, `technology-ai`); else null. */
export function categoryByNameOrSlug(value: string): Category | null {
  const i = indexOf(value);
  return i === undefined ? null : CATEGORIES[i];
}

/** The names a category filter covers: the category itself and its descendants. [] for an unknown value. */
export function descendantsOf(name: string): string[] {
  const category = categoryByNameOrSlug(name);
  if (category === null) return [];
  const prefix = `${category.name}/`;
  return CATEGORIES.filter((c) => c.name === category.name || c.name.startsWith(prefix)).map((c) => c.name);
}

// ---------------------------------------------------------------------------------------------------------
// Lexicons

const STRONG_WEIGHT = 3;
const WEAK_WEIGHT = 1;
const KEY_EXACT = 6;
const KEY_PART = 3;
const SURFACE = 2;
const TEXT = 1;
const MIN_SCORE = 2;
const MAX_TEXTS = 20;
const MAX_TEXT_CHARS = 1000;
const MAX_SURFACES = 20;

interface LexiconHit {
  index: number;
  weight: number;
}

/** normalised term → categories it points to (taxonomy order) */
const LEXICON = new Map<string, LexiconHit[]>();
/** Lexicon terms that did not survive normalisation (a test keeps this empty). */
export const UNUSABLE_LEXICON_TERMS: string[] = [];
/** Every lexicon term, normalised (for tests). */
export const lexiconTermKeys = (): string[] => [...LEXICON.keys()];
/** The first words of every lexicon term longer than them (`new`, `new york` for `new york city`). */
const TERM_PREFIXES = new Set<string>();

function addTerms(index: number, list: string | undefined, weight: number): void {
  if (list === undefined) return;
  for (const raw of list.split(',')) {
    const term = raw.trim();
    if (term === '') continue;
    const key = normaliseKey(term);
    if (key === null) {
      UNUSABLE_LEXICON_TERMS.push(term);
      continue;
    }
    const words = key.split(' ');
    for (let n = 1; n < words.length; n++) TERM_PREFIXES.add(words.slice(0, n).join(' '));
    const hits = LEXICON.get(key) ?? [];
    const existing = hits.find((h) => h.index === index);
    if (existing) existing.weight = Math.max(existing.weight, weight);
    else hits.push({ index, weight });
    LEXICON.set(key, hits);
  }
}

for (const top of TAXONOMY) {
  for (const child of top.children) {
    const index = INDEX_BY_NAME.get(`${top.name}/${child.name}`.toLowerCase())!;
    addTerms(index, child.strong, STRONG_WEIGHT);
    addTerms(index, child.terms, WEAK_WEIGHT);
  }
}

/**
 * The lexicon terms among a token list's n-grams (each start in turn, shortest gram first): a gram is extended
 * by a word only while it begins some longer term, so a text's words are not joined into grams no term can be.
 */
export function lexiconTerms(tokens: readonly string[]): string[] {
  const terms: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let gram = tokens[i]!;
    for (let n = 1; ; n++) {
      if (LEXICON.has(gram)) terms.push(gram);
      if (i + n >= tokens.length || !TERM_PREFIXES.has(gram)) break;
      gram = `${gram} ${tokens[i + n]}`;
    }
  }
  return terms;
}

function addHits(scores: Float64Array, term: string, multiplier: number): void {
  const hits = LEXICON.get(term);
  if (hits === undefined) return;
  for (const hit of hits) scores[hit.index] += hit.weight * multiplier;
}

function lexiconScores(input: CategoriseInput): Float64Array {
  const scores = new Float64Array(CATEGORIES.length);
  const key = (typeof input.key === 'string' ? normaliseKey(input.key) : null) ?? '';
  const seen = new Set<string>();
  if (key !== '') {
    seen.add(key);
    addHits(scores, key, KEY_EXACT);
    for (const term of lexiconTerms(key.split(' '))) if (term !== key) addHits(scores, term, KEY_PART);
  }
  for (const surface of (input.surfaceForms ?? []).slice(0, MAX_SURFACES)) {
    const normal = typeof surface === 'string' ? normaliseKey(surface) : null;
    if (normal === null || seen.has(normal)) continue;
    seen.add(normal);
    for (const term of new Set(lexiconTerms(normal.split(' ')))) addHits(scores, term, SURFACE);
  }
  for (const text of (input.texts ?? []).slice(0, MAX_TEXTS)) {
    if (typeof text !== 'string') continue;
    const hits = input.knownHits?.get(text) ?? sampleTextHits(text);
    for (let i = 0; i < hits.length; i += 2) scores[hits[i]!] += hits[i + 1]!;
  }
  return scores;
}

/**
 * The lexicon hits of a sample text as categorisation reads it (its first 1,000 characters). Pure: the NLP
 * threads work them out for the texts of signals naming a key they had not seen, so the thread that writes a
 * batch does not read those texts again to categorise the new trends (`CategoriseInput.knownHits`).
 */
export function sampleTextHits(text: string): TextHits {
  return textHits(text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text);
}

const TEXT_HITS = new Map<string, readonly number[]>();
/** Texts whose hits are remembered (at most MAX_TEXT_CHARS each): a few MB. */
const TEXT_HITS_KEPT = 4096;

/**
 * A text's lexicon hits summed by category, as [index, weight, index, weight, …]. Remembered for the last few
 * thousand texts: a batch categorises each new trend over its sample texts, and a post naming five new trends
 * was read five times (on real posts that reading was most of the API thread's work per signal). Weights are
 * whole numbers, so the sums are exact in any order.
 */
function textHits(text: string): readonly number[] {
  let hits = TEXT_HITS.get(text);
  if (hits !== undefined) return hits;
  const sums = new Map<number, number>();
  // Each term counts once per text, so one long text cannot outvote the rest.
  for (const term of new Set(lexiconTerms(normaliseTokens(text)))) {
    for (const hit of LEXICON.get(term)!) {
      sums.set(hit.index, (sums.get(hit.index) ?? 0) + hit.weight * TEXT);
    }
  }
  hits = [...sums].flat();
  if (TEXT_HITS.size >= TEXT_HITS_KEPT) TEXT_HITS.clear();
  TEXT_HITS.set(text, hits);
  return hits;
}

/** Index of the best score ≥ MIN_SCORE among `candidates` (taxonomy order breaks ties), or undefined. */
function best(scores: Float64Array, candidates: Iterable<number>): number | undefined {
  let winner: number | undefined;
  for (const i of candidates) {
    if (scores[i] < MIN_SCORE) continue;
    if (winner === undefined || scores[i] > scores[winner]) winner = i;
  }
  return winner;
}

// ---------------------------------------------------------------------------------------------------------
// Hints

function asList(value: string | readonly string[] | null | undefined): readonly string[] {
  if (value === null || value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}

function fromAlias(value: string): number | undefined {
  const alias = ALIASES.get(
    value
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, ' '),
  );
  return alias === undefined ? undefined : INDEX_BY_NAME.get(alias.toLowerCase());
}

/** A term's strongest category by the lexicon (taxonomy order breaks ties). */
function fromLexicon(value: string): number | undefined {
  const key = normaliseKey(value);
  const hits = key === null ? undefined : LEXICON.get(key);
  if (hits === undefined) return undefined;
  let winner: LexiconHit | undefined;
  for (const hit of hits) if (winner === undefined || hit.weight > winner.weight) winner = hit;
  return winner?.index;
}

function fromCategoryHint(value: string): number | undefined {
  return indexOf(value) ?? fromAlias(value);
}

function fromSubreddit(value: string): number | undefined {
  const name = value.trim().replace(/^\/?r\//i, '');
  if (name === '') return undefined;
  const mapped = SUBREDDITS.get(name.toLowerCase());
  if (mapped !== undefined) return INDEX_BY_NAME.get(mapped.toLowerCase());
  return indexOf(name) ?? fromAlias(name) ?? fromLexicon(name);
}

function fromTag(value: string): number | undefined {
  return indexOf(value) ?? fromAlias(value) ?? fromLexicon(value);
}

/** The winning hint: explicit categories before subreddits before tags; within a kind, the most votes. */
function resolveHints(hints: CategoryHints): number | undefined {
  const kinds: [readonly string[], (value: string) => number | undefined][] = [
    [asList(hints.category), fromCategoryHint],
    [asList(hints.subreddit), fromSubreddit],
    [asList(hints.tags), fromTag],
  ];
  for (const [values, resolve] of kinds) {
    const votes = new Map<number, number>();
    for (const value of values) {
      if (typeof value !== 'string') continue;
      const index = resolve(value);
      if (index !== undefined) votes.set(index, (votes.get(index) ?? 0) + 1);
    }
    let winner: number | undefined;
    for (const [index, count] of votes) {
      const lead = winner === undefined ? -1 : (votes.get(winner) ?? 0);
      if (count > lead || (count === lead && winner !== undefined && index < winner)) winner = index;
    }
    if (winner !== undefined) return winner;
  }
  return undefined;
}

function childIndexes(parentIndex: number): number[] {
  const parent = CATEGORIES[parentIndex].name;
  const out: number[] = [];
  CATEGORIES.forEach((c, i) => {
    if (c.parent === parent) out.push(i);
  });
  return out;
}

/**
 * The category path of a trend (see the module comment for the rules). Always a taxonomy name;
 * `General/Other` when nothing matches.
 */
export function categorise(input: CategoriseInput): string {
  const hinted = input.hints ? resolveHints(input.hints) : undefined;
  if (hinted !== undefined) {
    if (CATEGORIES[hinted].parent !== null) return CATEGORIES[hinted].name;
    const refined = best(lexiconScores(input), childIndexes(hinted));
    return CATEGORIES[refined ?? hinted].name;
  }
  const scores = lexiconScores(input);
  const winner = best(scores, scores.keys());
  return winner === undefined ? FALLBACK_CATEGORY : CATEGORIES[winner].name;
}
