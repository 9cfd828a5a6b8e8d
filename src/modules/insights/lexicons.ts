// Word lists and per-category tables of the offline analyzer. General vocabulary, written by topic, never
// fitted to particular texts.

/** Matches as whole words (phrases allowed) against a lower-cased text. */
function phraseMatcher(phrases: readonly string[]): RegExp {
  const escaped = phrases.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
}

/** Commercial or transactional modifiers: a mention using one is a buying-research mention. */
const COMMERCIAL_MODIFIERS = [
  'best',
  'top rated',
  'vs',
  'versus',
  'compare',
  'comparison',
  'review',
  'reviews',
  'buy',
  'buying',
  'purchase',
  'price',
  'prices',
  'pricing',
  'cost',
  'costs',
  'cheap',
  'cheapest',
  'discount',
  'discounts',
  'deal',
  'deals',
  'coupon',
  'promo',
  'promo code',
  'sale',
  'on sale',
  'order',
  'preorder',
  'pre-order',
  'shop',
  'shopping',
  'subscribe',
  'subscription',
  'free trial',
  'worth it',
  'alternative',
  'alternatives',
  'where to buy',
  'for sale',
  'affordable',
  'budget',
  'upgrade',
];
export const COMMERCIAL = phraseMatcher(COMMERCIAL_MODIFIERS);

/** Complaint topics: a negative mention that uses one of the cues is a complaint about that topic. */
export const COMPLAINT_TOPICS = (
  [
    {
      label: 'outages and downtime',
      response:
        'post a status update with the scope, a cause if known and the time of the next update; follow up when it is resolved.',
      cues: [
        'outage',
        'down',
        'offline',
        'not loading',
        "won't load",
        'crash',
        'crashed',
        'crashes',
        'crashing',
        'unavailable',
        'error',
        'errors',
        '502',
        '503',
      ],
    },
    {
      label: 'billing, pricing and refunds',
      response:
        'apologise, explain the charge, offer a refund or credit where due and give a direct billing contact.',
      cues: [
        'refund',
        'refunds',
        'charged',
        'overcharged',
        'billing',
        'bill',
        'invoice',
        'price hike',
        'too expensive',
        'expensive',
        'overpriced',
        'fee',
        'fees',
        'scam',
        'rip off',
        'ripoff',
        'cancel',
        'cancelled',
        'canceled',
        'subscription',
      ],
    },
    {
      label: 'bugs and broken features',
      response: 'confirm the bug, share a workaround if there is one and say when a fix is expected.',
      cues: [
        'bug',
        'bugs',
        'buggy',
        'broken',
        'glitch',
        'glitches',
        "doesn't work",
        'does not work',
        'not working',
        'stopped working',
        'fails',
        'failed',
        'failing',
        'unusable',
        'useless',
      ],
    },
    {
      label: 'slow performance',
      response: 'acknowledge the slowdown, say what is being done and share how to check current status.',
      cues: [
        'slow',
        'lag',
        'laggy',
        'latency',
        'takes forever',
        'sluggish',
        'freezes',
        'freezing',
        'timeout',
        'timeouts',
      ],
    },
    {
      label: 'customer support',
      response: 'apologise for the wait, offer a direct escalation path and publish current response times.',
      cues: [
        'support',
        'customer service',
        'no response',
        'no reply',
        'ignored',
        'ticket',
        'on hold',
        'waiting',
        'rude',
        'unhelpful',
      ],
    },
    {
      label: 'delivery and shipping',
      response: 'share tracking and realistic delivery times, and offer options for late or lost orders.',
      cues: [
        'shipping',
        'delivery',
        'delivered',
        'late',
        'delayed',
        'delay',
        'never arrived',
        'lost package',
        'backorder',
      ],
    },
    {
      label: 'product quality',
      response: 'ask for details privately, offer a replacement or repair, and say what is being improved.',
      cues: [
        'poor quality',
        'low quality',
        'defective',
        'flimsy',
        'cheaply made',
        'broke',
        'faulty',
        'damaged',
        'stopped charging',
        'fell apart',
      ],
    },
    {
      label: 'privacy and security',
      response:
        'state plainly what happened and what data is affected, the steps taken, and what users should do now.',
      cues: [
        'breach',
        'leak',
        'leaked',
        'hacked',
        'privacy',
        'tracking',
        'spyware',
        'data stolen',
        'phishing',
      ],
    },
    {
      label: 'safety concerns',
      response:
        'put safety first: give clear instructions, recall or support details, and a contact for affected people.',
      cues: [
        'recall',
        'recalled',
        'injury',
        'injured',
        'dangerous',
        'unsafe',
        'fire',
        'overheating',
        'explode',
        'exploded',
      ],
    },
  ] as { label: string; response: string; cues: string[] }[]
).map((t) => ({ ...t, matcher: phraseMatcher(t.cues) }));

/** Brand-safety category lexicons (profanity itself comes from `obscenity`). */
export const SAFETY_LEXICONS = (
  [
    {
      flag: 'adult',
      terms: [
        'porn',
        'porno',
        'pornography',
        'nsfw',
        'xxx',
        'nude',
        'nudes',
        'nudity',
        'onlyfans',
        'explicit',
        'sexual',
        'sex tape',
        'escort',
        'camgirl',
        'hentai',
        'erotic',
      ],
    },
    {
      flag: 'violence',
      terms: [
        'shooting',
        'shot dead',
        'gunman',
        'gunfire',
        'murder',
        'murdered',
        'killing',
        'killed',
        'stabbing',
        'stabbed',
        'massacre',
        'assault',
        'attack',
        'attacked',
        'bombing',
        'bomb',
        'explosion',
        'terrorist',
        'terrorism',
        'hostage',
        'riot',
        'riots',
        'beheaded',
        'war crime',
        'airstrike',
        'violence',
        'violent',
      ],
    },
    {
      flag: 'hate',
      terms: [
        'racist',
        'racism',
        'slur',
        'slurs',
        'nazi',
        'nazis',
        'white supremacist',
        'supremacy',
        'antisemitic',
        'antisemitism',
        'islamophobic',
        'homophobic',
        'transphobic',
        'bigot',
        'bigotry',
        'hate speech',
        'hate crime',
        'xenophobic',
        'ethnic cleansing',
      ],
    },
    {
      flag: 'tragedy',
      terms: [
        'died',
        'dies',
        'dead',
        'death',
        'deaths',
        'death toll',
        'fatal',
        'fatalities',
        'funeral',
        'victims',
        'tragedy',
        'tragic',
        'disaster',
        'earthquake',
        'tsunami',
        'wildfire',
        'flood',
        'flooding',
        'hurricane',
        'plane crash',
        'mourning',
        'condolences',
        'rip',
        'passed away',
        'missing',
      ],
    },
    {
      flag: 'controversy',
      terms: [
        'scandal',
        'boycott',
        'lawsuit',
        'sued',
        'backlash',
        'outrage',
        'controversy',
        'controversial',
        'accused',
        'allegations',
        'fraud',
        'investigation',
        'cover up',
        'cover-up',
        'fired',
        'resigns',
        'resignation',
        'misinformation',
        'conspiracy',
        'cancelled',
        'layoffs',
      ],
    },
    {
      flag: 'drugs',
      terms: ['cocaine', 'heroin', 'meth', 'fentanyl', 'overdose', 'drug dealer', 'cartel', 'narcotics'],
    },
  ] as { flag: string; terms: string[] }[]
).map((l) => ({ ...l, matcher: phraseMatcher(l.terms) }));

/** Negative keywords every ad campaign on a trend should exclude (job seekers, piracy, freebies). */
export const GENERIC_NEGATIVE_KEYWORDS = ['free download', 'torrent', 'crack', 'jobs', 'careers', 'salary'];

export interface CategoryProfile {
  /** Typical cost per click in USD of search/social ads in this vertical (order of magnitude only). */
  baseCpcUsd: number;
  ageMin: number;
  ageMax: number;
  audiences: string[];
  demographics: string;
}

/**
 * Per top-level category: a base CPC and a coarse audience profile. The CPCs are rounded industry-average
 * figures for paid search/social (finance and legal expensive, entertainment and gaming cheap); they
 * set the scale of predicted_cpc_usd and are not a quote.
 */
const CATEGORY_PROFILES: Record<string, CategoryProfile> = {
  Technology: {
    baseCpcUsd: 3.8,
    ageMin: 21,
    ageMax: 54,
    audiences: ['tech early adopters', 'software developers and IT professionals', 'tech-savvy consumers'],
    demographics:
      'Skews 21–54, professional and urban, over-indexing on early adopters and IT decision makers.',
  },
  'Business & Finance': {
    baseCpcUsd: 4.5,
    ageMin: 25,
    ageMax: 64,
    audiences: ['retail investors', 'business decision makers', 'finance professionals'],
    demographics: 'Skews 25–64 with higher household income; investors, founders and finance professionals.',
  },
  'Politics & Government': {
    baseCpcUsd: 1.6,
    ageMin: 25,
    ageMax: 65,
    audiences: ['politically engaged citizens', 'policy professionals', 'news readers'],
    demographics:
      'Adults 25–65+, news-engaged and politically active; older than the average social audience.',
  },
  Health: {
    baseCpcUsd: 3.2,
    ageMin: 25,
    ageMax: 65,
    audiences: ['health-conscious adults', 'patients and caregivers', 'healthcare professionals'],
    demographics: 'Adults 25–65+, somewhat female-skewed; patients, caregivers and health professionals.',
  },
  Science: {
    baseCpcUsd: 1.8,
    ageMin: 18,
    ageMax: 54,
    audiences: ['science enthusiasts', 'students and educators', 'researchers'],
    demographics: 'Adults 18–54, educated; students, educators and curious readers.',
  },
  Entertainment: {
    baseCpcUsd: 1.1,
    ageMin: 18,
    ageMax: 44,
    audiences: ['fans and pop-culture followers', 'streaming subscribers', 'entertainment news readers'],
    demographics: 'Skews 18–44, mobile-first and social-video heavy.',
  },
  Sports: {
    baseCpcUsd: 1.3,
    ageMin: 18,
    ageMax: 54,
    audiences: ['sports fans', 'fantasy and betting players', 'athletes and fitness fans'],
    demographics: 'Skews 18–54 and male, highly engaged around live events.',
  },
  Lifestyle: {
    baseCpcUsd: 1.5,
    ageMin: 18,
    ageMax: 54,
    audiences: ['lifestyle and home enthusiasts', 'parents', 'social-media trend followers'],
    demographics: 'Adults 18–54, female-skewed, discovery-driven on visual platforms.',
  },
  Travel: {
    baseCpcUsd: 1.9,
    ageMin: 25,
    ageMax: 64,
    audiences: ['leisure travellers', 'business travellers', 'deal seekers'],
    demographics: 'Adults 25–64 with discretionary income, planning trips weeks ahead.',
  },
  'Food & Drink': {
    baseCpcUsd: 1.2,
    ageMin: 18,
    ageMax: 54,
    audiences: ['food lovers', 'home cooks', 'restaurant-goers'],
    demographics: 'Adults 18–54, broad; home cooks and diners, strong on visual platforms.',
  },
  Gaming: {
    baseCpcUsd: 0.9,
    ageMin: 16,
    ageMax: 39,
    audiences: ['core gamers', 'streaming viewers', 'esports fans'],
    demographics: 'Skews 16–39 and male, heavy on streaming and community platforms.',
  },
  'Environment & Climate': {
    baseCpcUsd: 1.4,
    ageMin: 18,
    ageMax: 54,
    audiences: ['sustainability-minded consumers', 'climate activists', 'policy followers'],
    demographics: 'Adults 18–54, urban and educated, values-driven purchasing.',
  },
  'Crisis & Safety': {
    baseCpcUsd: 0.8,
    ageMin: 18,
    ageMax: 65,
    audiences: ['local residents', 'news followers', 'emergency-preparedness households'],
    demographics: 'All adults in the affected area; attention is informational, not commercial.',
  },
  Education: {
    baseCpcUsd: 2.6,
    ageMin: 17,
    ageMax: 44,
    audiences: ['students', 'parents of students', 'educators and lifelong learners'],
    demographics: 'Skews 17–44; students and parents researching courses and tools.',
  },
  Automotive: {
    baseCpcUsd: 2.4,
    ageMin: 25,
    ageMax: 64,
    audiences: ['car shoppers', 'automotive enthusiasts', 'EV-curious drivers'],
    demographics: 'Adults 25–64, male-skewed; in-market shoppers research for weeks.',
  },
  'Fashion & Beauty': {
    baseCpcUsd: 1.3,
    ageMin: 18,
    ageMax: 44,
    audiences: ['fashion and beauty shoppers', 'style influencers’ followers', 'deal seekers'],
    demographics: 'Skews 18–44 and female, visual- and creator-driven.',
  },
  General: {
    baseCpcUsd: 1.5,
    ageMin: 18,
    ageMax: 65,
    audiences: ['general social-media audiences', 'news readers', 'trend followers'],
    demographics: 'Broad adult audience 18–65+.',
  },
};

export function profileFor(category: string): CategoryProfile {
  const top = category.split('/')[0] ?? 'General';
  return CATEGORY_PROFILES[top] ?? CATEGORY_PROFILES.General!;
}

/** Content formats that fit each platform's audience. */
export const PLATFORM_FORMATS: Record<string, string[]> = {
  x: ['short reactive posts and threads', 'polls'],
  bluesky: ['short reactive posts and threads'],
  reddit: ['community discussion post or AMA', 'long-form explainer answering the common questions'],
  hackernews: ['technical deep-dive or engineering blog post'],
  news: ['explainer article with key facts', 'press statement or newsroom update'],
  search: ['SEO landing page and FAQ', 'comparison guide'],
  youtube: ['short video explainer'],
  tiktok: ['short vertical video'],
  instagram: ['carousel and short vertical video'],
};

/** Reddit-like communities per top-level category, for forum-ads payloads when signals name none. */
export const CATEGORY_COMMUNITIES: Record<string, string[]> = {
  Technology: ['technology', 'gadgets', 'programming'],
  'Business & Finance': ['investing', 'personalfinance', 'business'],
  'Politics & Government': ['politics', 'worldnews', 'news'],
  Health: ['health', 'fitness', 'nutrition'],
  Science: ['science', 'space', 'askscience'],
  Entertainment: ['movies', 'television', 'music'],
  Sports: ['sports', 'nba', 'soccer'],
  Lifestyle: ['lifeprotips', 'homeimprovement', 'parenting'],
  Travel: ['travel', 'solotravel', 'travelhacks'],
  'Food & Drink': ['food', 'cooking', 'recipes'],
  Gaming: ['gaming', 'pcgaming', 'games'],
  'Environment & Climate': ['environment', 'climate', 'sustainability'],
  'Crisis & Safety': ['news', 'worldnews'],
  Education: ['education', 'college', 'learnprogramming'],
  Automotive: ['cars', 'electricvehicles', 'autos'],
  'Fashion & Beauty': ['fashion', 'malefashionadvice', 'beauty'],
  General: ['news', 'todayilearned'],
};
