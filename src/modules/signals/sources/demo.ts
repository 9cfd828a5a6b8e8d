/**
 * The demo source: a deterministic, seeded simulator of a multi-platform public stream (reddit, x, news,
 * hackernews, bluesky, search), so a fresh install shows trends moving within a minute, with no network.
 *
 * Everything is a pure function of (seed, simulated time):
 *  - Time is cut into 10-second slots. A slot's posts come from a PRNG seeded with hash(seed, slot), so any
 *    range of time always yields the same posts and a range split into pieces yields exactly the union
 *    (`external_id` = `demo-<slot>-<n>`, stable; re-polling an overlapping range is deduplicated on store).
 *  - Each topic has a base rate (posts/hour) times a daily rhythm (busiest around 15:00 UTC, quietest around
 *    03:00 UTC) times its shape over days: `steady`, `fading` (a story breaks, then fades over days, and a
 *    new one breaks every few days) or `wave` (rises and falls over several days).
 *  - Bursts: time is also cut into 40-minute epochs; each epoch starts one or two bursts at a hashed instant
 *    on a hashed topic. A burst rises over 40–80 minutes and fades over a few hours, so at any moment a few
 *    topics are surging.
 *  - Texts come from templates with positive, negative and neutral phrasing (clear VADER words: love, great,
 *    terrible, angry, …), hashtags often, `keywords` sometimes, engagement numbers, `demo_user_<n>` authors
 *    and, where a platform has links, `https://example.com/demo/<id>` (a reserved domain).
 *  - A slot's volume is the sum of the topic rates (rounded up or down at random, so even a quiet 30 seconds
 *    holds enough posts for trends); each post's topic is drawn by rate.
 * Volume averages about 1.5 posts per second over all topics (about 1/s around 03:00 UTC, 2.2/s in the
 * afternoon): 72 hours of history is about 390,000 posts. Topic names and brands are fictional; no real
 * person is named.
 */
import type { PollingSource, PollResult, SourceContext, SourceSignal } from './types.ts';

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Posts are generated per slot of this length. */
export const DEMO_SLOT_MS = 10 * SECOND_MS;
const BURST_EPOCH_MS = 40 * MINUTE_MS;
/** A burst is ignored after this many rise times (its level is then below 1 % of the peak). */
const BURST_SPAN_RISES = 5;
const MAX_RISE_MS = 80 * MINUTE_MS;
const BURST_LOOKBACK_EPOCHS = Math.ceil((BURST_SPAN_RISES * MAX_RISE_MS) / BURST_EPOCH_MS) + 1;

export const DEMO_PLATFORMS = ['reddit', 'x', 'news', 'hackernews', 'bluesky', 'search'] as const;
export type DemoPlatform = (typeof DEMO_PLATFORMS)[number];

export type DemoShape = 'steady' | 'fading' | 'wave';

export interface DemoTopic {
  id: string;
  /** Canonical name; every post about the topic mentions it (case-insensitively). */
  name: string;
  shape: DemoShape;
  /** Posts per hour at average daily activity, outside bursts. */
  rate: number;
  /** How likely the topic is to be picked for a burst (relative). */
  burstiness: number;
  /** -1 (mostly negative posts) … 1 (mostly positive). */
  mood: number;
  hashtags: string[];
  keywords: string[];
  /** Noun phrases naming the topic; each contains `name`. */
  subjects: string[];
  /** Neutral sentences carrying the topic's category words; each contains `name`. */
  facts: string[];
  /** Platform weights; missing platforms use the defaults. */
  platforms?: Partial<Record<DemoPlatform, number>>;
  locations?: string[];
}

const DEFAULT_PLATFORMS: Record<DemoPlatform, number> = {
  x: 30,
  reddit: 20,
  bluesky: 15,
  news: 12,
  hackernews: 3,
  search: 15,
};
const TECH_PLATFORMS: Partial<Record<DemoPlatform, number>> = { hackernews: 20, reddit: 25 };
const NEWS_PLATFORMS: Partial<Record<DemoPlatform, number>> = { news: 25, hackernews: 1 };

// ---------------------------------------------------------------------------------------------------------
// Topics (fictional brands, places and events)

export const DEMO_TOPICS: readonly DemoTopic[] = [
  // Technology
  {
    id: 'lumen-nimbus',
    name: 'Lumen Nimbus',
    shape: 'wave',
    rate: 248,
    burstiness: 3,
    mood: 0.2,
    hashtags: ['LumenNimbus', 'Smartphones'],
    keywords: ['Lumen Nimbus', 'smartphone', 'battery life'],
    subjects: ['the Lumen Nimbus', 'the new Lumen Nimbus smartphone', 'the Lumen Nimbus phone'],
    facts: [
      'The Lumen Nimbus smartphone ships with a foldable OLED screen and a larger battery.',
      'The Lumen Nimbus goes on sale in 40 countries next month.',
      'Early reviews of the Lumen Nimbus focus on battery life and the camera.',
    ],
    platforms: TECH_PLATFORMS,
  },
  {
    id: 'atlas-7',
    name: 'Atlas-7',
    shape: 'wave',
    rate: 221,
    burstiness: 3,
    mood: 0.3,
    hashtags: ['Atlas7', 'LLM'],
    keywords: ['Atlas-7', 'large language model', 'generative AI'],
    subjects: ['the Atlas-7 model', 'Meridian Labs and Atlas-7', 'the open Atlas-7 language model'],
    facts: [
      'Meridian Labs released Atlas-7, an AI model with open weights.',
      'Atlas-7 tops two AI coding benchmarks according to the Meridian Labs report.',
      'Researchers are testing the Atlas-7 large language model for local inference.',
    ],
    platforms: TECH_PLATFORMS,
  },
  {
    id: 'stratus-outage',
    name: 'Stratus Cloud',
    shape: 'steady',
    rate: 55,
    burstiness: 5,
    mood: -0.8,
    hashtags: ['StratusCloud', 'StratusDown'],
    keywords: ['Stratus Cloud', 'outage', 'cloud computing'],
    subjects: ['the Stratus Cloud outage', 'Stratus Cloud', 'the Stratus Cloud status page'],
    facts: [
      'Stratus Cloud reports elevated error rates for storage in its west region.',
      'The Stratus Cloud status page lists DNS and databases as affected by the outage.',
      'Stratus Cloud engineers are rolling back a network configuration change.',
    ],
    platforms: TECH_PLATFORMS,
  },
  {
    id: 'ferrite-2',
    name: 'Ferrite 2',
    shape: 'steady',
    rate: 83,
    burstiness: 1,
    mood: 0.3,
    hashtags: ['Ferrite2', 'WebDev'],
    keywords: ['Ferrite 2', 'web framework', 'programming'],
    subjects: ['Ferrite 2', 'the Ferrite 2 web framework', 'the Ferrite 2 release'],
    facts: [
      'Ferrite 2, the open source web framework, adds streaming responses and a new router.',
      'The Ferrite 2 release notes list breaking changes for plugin developers.',
      'Ferrite 2 now compiles to WebAssembly according to its GitHub page.',
    ],
    platforms: { hackernews: 35, reddit: 25, news: 2, search: 8 },
  },
  {
    id: 'helix-9',
    name: 'Helix 9',
    shape: 'fading',
    rate: 74,
    burstiness: 2,
    mood: 0.1,
    hashtags: ['Helix9', 'Semiconductors'],
    keywords: ['Helix 9', 'processor', 'semiconductor'],
    subjects: ['the Helix 9 chip', 'the Helix 9 processor', 'the new Helix 9'],
    facts: [
      'Helix Semiconductor unveiled the Helix 9 processor for data center servers.',
      'The Helix 9 chip is built on a 2 nanometre process at a foundry in Asia.',
      'Benchmarks put the Helix 9 ahead of last year’s GPU in inference work.',
    ],
    platforms: TECH_PLATFORMS,
  },
  {
    id: 'keystone-vpn',
    name: 'Keystone VPN',
    shape: 'steady',
    rate: 46,
    burstiness: 4,
    mood: -0.6,
    hashtags: ['KeystoneVpn', 'Cybersecurity'],
    keywords: ['Keystone VPN', 'vulnerability', 'security patch'],
    subjects: ['the Keystone VPN vulnerability', 'Keystone VPN', 'the Keystone VPN zero day'],
    facts: [
      'A zero day vulnerability in Keystone VPN appliances is being exploited, researchers say.',
      'Keystone VPN published a security patch and asks admins to rotate credentials.',
      'Security teams are scanning for Keystone VPN devices exposed to the internet.',
    ],
    platforms: TECH_PLATFORMS,
  },
  // Sports
  {
    id: 'continental-cup',
    name: 'Continental Cup',
    shape: 'wave',
    rate: 248,
    burstiness: 4,
    mood: 0.4,
    hashtags: ['ContinentalCup', 'Riverton'],
    keywords: ['Continental Cup', 'soccer', 'Riverton FC'],
    subjects: ['the Continental Cup final', 'Riverton FC in the Continental Cup', 'the Continental Cup'],
    facts: [
      'Riverton FC face Eastport United in the Continental Cup soccer final on Saturday.',
      'The Riverton FC striker scored twice in the Continental Cup semi-final.',
      'The Continental Cup semi-final was decided by a penalty kick after a 2-2 draw.',
    ],
  },
  {
    id: 'harbor-hawks',
    name: 'Harbor City Hawks',
    shape: 'steady',
    rate: 166,
    burstiness: 2,
    mood: 0.2,
    hashtags: ['HarborCityHawks', 'HawksPlayoffs'],
    keywords: ['Harbor City Hawks', 'basketball', 'playoffs'],
    subjects: ['the Harbor City Hawks', 'the Harbor City Hawks playoff run', 'Harbor City Hawks fans'],
    facts: [
      'The Harbor City Hawks lead the basketball playoff series 3-1.',
      'Harbor City Hawks guard scored 41 points in game four of the playoffs.',
      'The Harbor City Hawks host game five at home on Thursday night.',
    ],
  },
  {
    id: 'harbor-marathon',
    name: 'Harbor City Marathon',
    shape: 'fading',
    rate: 64,
    burstiness: 2,
    mood: 0,
    hashtags: ['HarborCityMarathon', 'Running'],
    keywords: ['Harbor City Marathon', 'marathon'],
    subjects: ['the Harbor City Marathon', 'the Harbor City Marathon route', 'Harbor City Marathon runners'],
    facts: [
      'More than 30,000 runners are registered for the Harbor City Marathon.',
      'The Harbor City Marathon route closes the waterfront roads until 2 pm.',
      'The Harbor City Marathon course record stands at 2 hours 5 minutes.',
    ],
    locations: ['Harbor City'],
  },
  {
    id: 'westvale-open',
    name: 'Westvale Open',
    shape: 'wave',
    rate: 83,
    burstiness: 2,
    mood: 0.2,
    hashtags: ['WestvaleOpen', 'Tennis'],
    keywords: ['Westvale Open', 'tennis', 'grand slam'],
    subjects: ['the Westvale Open', 'the Westvale Open tennis draw', 'the Westvale Open quarter-finals'],
    facts: [
      'The Westvale Open tennis quarter-finals start on centre court at noon.',
      'Rain delayed two Westvale Open grand slam matches by three hours.',
      'The Westvale Open tennis draw puts the top two seeds in the same half.',
    ],
  },
  {
    id: 'valdora-gp',
    name: 'Valdora Grand Prix',
    shape: 'steady',
    rate: 64,
    burstiness: 3,
    mood: 0.3,
    hashtags: ['ValdoraGrandPrix', 'Motorsport'],
    keywords: ['Valdora Grand Prix', 'motorsport', 'qualifying'],
    subjects: [
      'the Valdora Grand Prix',
      'qualifying at the Valdora Grand Prix',
      'the Valdora Grand Prix race',
    ],
    facts: [
      'Qualifying for the Valdora Grand Prix starts at 14:00 local time.',
      'A safety car period decided the Valdora Grand Prix on lap 48.',
      'Teams bring new aerodynamic upgrades to the Valdora Grand Prix circuit.',
    ],
  },
  // Business & finance
  {
    id: 'stock-market',
    name: 'stock market',
    shape: 'steady',
    rate: 221,
    burstiness: 2,
    mood: 0,
    hashtags: ['StockMarket', 'Stocks'],
    keywords: ['stock market', 'Nasdaq', 'earnings'],
    subjects: ['the stock market', 'the stock market rally', 'today’s stock market'],
    facts: [
      'The stock market closed higher as chip stocks gained 3 percent.',
      'Traders in the stock market are watching earnings from big retailers.',
      'Bond yields moved after the stock market opened on Monday.',
    ],
    platforms: NEWS_PLATFORMS,
  },
  {
    id: 'bitcoin',
    name: 'Bitcoin',
    shape: 'steady',
    rate: 193,
    burstiness: 3,
    mood: 0.1,
    hashtags: ['Bitcoin', 'Crypto'],
    keywords: ['Bitcoin', 'cryptocurrency', 'crypto'],
    subjects: ['Bitcoin', 'the Bitcoin price', 'Bitcoin and the crypto market'],
    facts: [
      'Bitcoin trades near its monthly high as crypto exchange volumes rise.',
      'Bitcoin ETF flows were positive for the fifth day in a row.',
      'Bitcoin mining difficulty adjusted upward this weekend.',
    ],
  },
  {
    id: 'rate-decision',
    name: 'central bank',
    shape: 'fading',
    rate: 64,
    burstiness: 3,
    mood: -0.1,
    hashtags: ['CentralBank', 'RateDecision'],
    keywords: ['interest rate', 'central bank', 'inflation'],
    subjects: ['the central bank rate decision', 'the central bank', 'central bank policy'],
    facts: [
      'The central bank kept its interest rate unchanged and cited sticky inflation.',
      'Economists expect the central bank to cut rates by a quarter point.',
      'Minutes from the central bank meeting will be published on Wednesday.',
    ],
    platforms: NEWS_PLATFORMS,
  },
  {
    id: 'orbitly',
    name: 'Orbitly',
    shape: 'fading',
    rate: 46,
    burstiness: 1,
    mood: 0.2,
    hashtags: ['Orbitly', 'Startups'],
    keywords: ['Orbitly', 'startup', 'funding round'],
    subjects: ['Orbitly', 'the Orbitly funding round', 'the startup Orbitly'],
    facts: [
      'Orbitly, a logistics startup, raised a 60 million Series B funding round.',
      'Orbitly plans to hire 200 engineers after its venture capital raise.',
      'Orbitly founders say the new funding round values the startup at 1 billion.',
    ],
    platforms: TECH_PLATFORMS,
  },
  // Entertainment
  {
    id: 'starfall-echoes',
    name: 'Starfall: Echoes',
    shape: 'wave',
    rate: 193,
    burstiness: 4,
    mood: 0.3,
    hashtags: ['StarfallEchoes', 'Movies'],
    keywords: ['Starfall: Echoes', 'box office', 'movie'],
    subjects: ['Starfall: Echoes', 'the Starfall: Echoes movie', 'the Starfall: Echoes premiere'],
    facts: [
      'Starfall: Echoes opened at the box office with 120 million worldwide.',
      'The Starfall: Echoes premiere drew crowds to the cinema in the rain.',
      'Starfall: Echoes runs for two hours and forty minutes, the director confirmed.',
    ],
  },
  {
    id: 'lantern-keepers',
    name: 'Lantern Keepers',
    shape: 'fading',
    rate: 101,
    burstiness: 2,
    mood: 0.3,
    hashtags: ['LanternKeepers', 'Streaming'],
    keywords: ['Lantern Keepers', 'tv series', 'season 2'],
    subjects: ['The Lantern Keepers', 'season 2 of The Lantern Keepers', 'The Lantern Keepers finale'],
    facts: [
      'Season 2 of The Lantern Keepers is now streaming, all eight episodes at once.',
      'The Lantern Keepers was renewed for a third season by the streaming service.',
      'The Lantern Keepers finale runs 75 minutes.',
    ],
  },
  {
    id: 'solstice-sound',
    name: 'Solstice Sound',
    shape: 'steady',
    rate: 64,
    burstiness: 3,
    mood: 0.4,
    hashtags: ['SolsticeSound', 'MusicFestival'],
    keywords: ['Solstice Sound', 'music festival', 'lineup'],
    subjects: ['the Solstice Sound festival', 'the Solstice Sound lineup', 'Solstice Sound'],
    facts: [
      'The Solstice Sound music festival announced its full lineup and stage times.',
      'Solstice Sound tickets go on sale Friday at 10 am.',
      'Solstice Sound adds a third stage for electronic music this year.',
    ],
  },
  {
    id: 'velvet-static',
    name: 'Velvet Static',
    shape: 'steady',
    rate: 55,
    burstiness: 3,
    mood: 0.4,
    hashtags: ['VelvetStatic', 'MidnightOrchard'],
    keywords: ['Velvet Static', 'album', 'Midnight Orchard'],
    subjects: ['the band Velvet Static', 'Midnight Orchard by Velvet Static', 'the new Velvet Static album'],
    facts: [
      'Velvet Static released their fourth album, Midnight Orchard, at midnight.',
      'Midnight Orchard by Velvet Static has twelve songs and a concert tour to follow.',
      'The new Velvet Static single entered the music charts at number three.',
    ],
  },
  // Health
  {
    id: 'flu-season',
    name: 'flu season',
    shape: 'wave',
    rate: 83,
    burstiness: 1,
    mood: -0.3,
    hashtags: ['FluSeason', 'PublicHealth'],
    keywords: ['flu season', 'flu vaccine', 'influenza'],
    subjects: ['flu season', 'this flu season', 'the flu season vaccine drive'],
    facts: [
      'Clinics report more influenza cases as flu season starts early.',
      'Health officials recommend the flu vaccine before flu season peaks.',
      'Pharmacies extend opening hours for flu season vaccination.',
    ],
    platforms: NEWS_PLATFORMS,
  },
  {
    id: 'sleep-study',
    name: 'sleep study',
    shape: 'fading',
    rate: 46,
    burstiness: 1,
    mood: 0.1,
    hashtags: ['SleepStudy', 'MentalHealth'],
    keywords: ['sleep study', 'mental health', 'sleep'],
    subjects: ['the new sleep study', 'the sleep study on teenagers', 'that sleep study'],
    facts: [
      'A sleep study of 20,000 adults links short sleep to anxiety and burnout.',
      'The sleep study suggests screens before bed delay sleep by 30 minutes.',
      'Researchers behind the sleep study call for later school start times.',
    ],
  },
  {
    id: 'step-challenge',
    name: 'step challenge',
    shape: 'steady',
    rate: 55,
    burstiness: 1,
    mood: 0.5,
    hashtags: ['StepChallenge', 'Fitness'],
    keywords: ['step challenge', 'fitness', 'walking'],
    subjects: ['the 10k step challenge', 'the step challenge', 'my step challenge streak'],
    facts: [
      'The 10k step challenge asks people to walk every day for 30 days.',
      'Fitness apps report the step challenge doubled daily walking for new users.',
      'The step challenge leaderboard resets on Monday morning.',
    ],
    platforms: { x: 20, bluesky: 20, reddit: 25, search: 10 },
  },
  // Climate, weather and energy
  {
    id: 'heatwave',
    name: 'heatwave',
    shape: 'fading',
    rate: 92,
    burstiness: 3,
    mood: -0.5,
    hashtags: ['Heatwave', 'ClimateChange'],
    keywords: ['heatwave', 'temperature', 'climate change'],
    subjects: ['the heatwave', 'this heatwave on the south coast', 'the heatwave warning'],
    facts: [
      'Temperatures during the heatwave reached 39 degrees on the south coast.',
      'The weather service extended its heatwave warning until Sunday.',
      'Cities open cooling centres as the heatwave continues.',
    ],
    locations: ['South Coast', 'Port Selwyn'],
  },
  {
    id: 'storm-elara',
    name: 'Storm Elara',
    shape: 'steady',
    rate: 46,
    burstiness: 4,
    mood: -0.6,
    hashtags: ['StormElara', 'Weather'],
    keywords: ['Storm Elara', 'storm', 'flood warning'],
    subjects: ['Storm Elara', 'the Storm Elara flood warning', 'Storm Elara winds'],
    facts: [
      'Storm Elara brings gusts of 110 km/h and heavy rain to the north.',
      'A flood warning is in place for three rivers as Storm Elara arrives.',
      'Ferries are suspended until Storm Elara passes on Tuesday.',
    ],
    platforms: NEWS_PLATFORMS,
    locations: ['Northern Coast', 'Kestrel Bay'],
  },
  {
    id: 'solar-record',
    name: 'solar power',
    shape: 'wave',
    rate: 74,
    burstiness: 2,
    mood: 0.5,
    hashtags: ['SolarPower', 'RenewableEnergy'],
    keywords: ['solar power', 'renewable energy', 'electricity grid'],
    subjects: ['solar power', 'the solar power record', 'solar power on the grid'],
    facts: [
      'Solar power supplied 45 percent of the electricity grid at midday.',
      'New solar power farms added 3 gigawatts of capacity this quarter.',
      'Battery storage helps move solar power into the evening peak.',
    ],
  },
  {
    id: 'coral-reef',
    name: 'coral reef',
    shape: 'steady',
    rate: 37,
    burstiness: 1,
    mood: 0.2,
    hashtags: ['CoralReef', 'Conservation'],
    keywords: ['coral reef', 'conservation', 'ocean'],
    subjects: ['the coral reef restoration', 'the coral reef project', 'coral reef conservation'],
    facts: [
      'Divers planted 10,000 coral fragments in the coral reef restoration project.',
      'Ocean temperatures affect how fast the coral reef recovers, scientists say.',
      'The coral reef conservation area doubles in size next year.',
    ],
  },
  // Civic
  {
    id: 'metro-line-5',
    name: 'Metro Line 5',
    shape: 'fading',
    rate: 64,
    burstiness: 2,
    mood: 0.1,
    hashtags: ['MetroLine5', 'PublicTransit'],
    keywords: ['Metro Line 5', 'public transport', 'commute'],
    subjects: ['Metro Line 5', 'the Metro Line 5 opening', 'the new Metro Line 5 stations'],
    facts: [
      'Metro Line 5 opens with 14 stations between the airport and the old town.',
      'Trains on Metro Line 5 run every four minutes at peak times.',
      'The city expects 200,000 daily trips on Metro Line 5.',
    ],
    locations: ['Harbor City'],
  },
  {
    id: 'city-budget',
    name: 'city budget',
    shape: 'steady',
    rate: 37,
    burstiness: 1,
    mood: -0.1,
    hashtags: ['CityBudget', 'LocalGov'],
    keywords: ['city budget', 'city council', 'public libraries'],
    subjects: ['the city budget', 'the city budget vote', 'the city budget for libraries'],
    facts: [
      'The city council votes on the city budget on Tuesday evening.',
      'The draft city budget adds funding for public libraries and parks.',
      'Residents can comment on the city budget online until Friday.',
    ],
    platforms: NEWS_PLATFORMS,
    locations: ['Harbor City'],
  },
  {
    id: 'voter-registration',
    name: 'voter registration',
    shape: 'wave',
    rate: 37,
    burstiness: 1,
    mood: 0.1,
    hashtags: ['VoterRegistration', 'RegisterToVote'],
    keywords: ['voter registration', 'election', 'register to vote'],
    subjects: ['voter registration', 'the voter registration deadline', 'online voter registration'],
    facts: [
      'The voter registration deadline for the local election is next Friday.',
      'Online voter registration takes about five minutes, officials say.',
      'Libraries host voter registration desks this weekend.',
    ],
  },
  // Gaming
  {
    id: 'skyforge',
    name: 'Skyforge Chronicles',
    shape: 'wave',
    rate: 166,
    burstiness: 4,
    mood: 0.2,
    hashtags: ['SkyforgeChronicles', 'Gaming'],
    keywords: ['Skyforge Chronicles', 'video game', 'patch'],
    subjects: ['Skyforge Chronicles', 'the Skyforge Chronicles launch', 'the Skyforge Chronicles servers'],
    facts: [
      'Skyforge Chronicles launched on PC and consoles with a 60 hour campaign.',
      'The Skyforge Chronicles day one patch fixes save game bugs.',
      'Skyforge Chronicles reached 500,000 concurrent players on Steam.',
    ],
  },
  {
    id: 'vanguard-masters',
    name: 'Vanguard Masters',
    shape: 'steady',
    rate: 55,
    burstiness: 4,
    mood: 0.3,
    hashtags: ['VanguardMasters', 'Esports'],
    keywords: ['Vanguard Masters', 'esports', 'tournament'],
    subjects: ['the Vanguard Masters', 'the Vanguard Masters final', 'the Vanguard Masters stream'],
    facts: [
      'The Vanguard Masters esports final streams live from the arena on Sunday.',
      'Sixteen teams play for a 2 million prize pool at the Vanguard Masters tournament.',
      'The Vanguard Masters bracket was drawn this morning.',
    ],
  },
  {
    id: 'novabox-pro',
    name: 'NovaBox Pro',
    shape: 'steady',
    rate: 64,
    burstiness: 2,
    mood: 0.1,
    hashtags: ['NovaBoxPro', 'Consoles'],
    keywords: ['NovaBox Pro', 'console', 'preorder'],
    subjects: ['the NovaBox Pro', 'the NovaBox Pro console', 'NovaBox Pro preorders'],
    facts: [
      'The NovaBox Pro console supports 4K at 120 frames per second.',
      'NovaBox Pro preorders open on Thursday at 9 am.',
      'The NovaBox Pro costs 499 and ships with a 2 terabyte drive.',
    ],
  },
  // Food & drink
  {
    id: 'hot-honey-pizza',
    name: 'hot honey pizza',
    shape: 'wave',
    rate: 55,
    burstiness: 2,
    mood: 0.5,
    hashtags: ['HotHoneyPizza', 'FoodTok'],
    keywords: ['hot honey pizza', 'recipe', 'pizza'],
    subjects: ['hot honey pizza', 'the hot honey pizza trend', 'homemade hot honey pizza'],
    facts: [
      'The hot honey pizza recipe uses chili, honey and a sourdough base.',
      'Restaurants add hot honey pizza to their menus after the recipe spread online.',
      'Hot honey pizza searches doubled this month.',
    ],
  },
  {
    id: 'cold-brew-tonic',
    name: 'cold brew tonic',
    shape: 'steady',
    rate: 37,
    burstiness: 1,
    mood: 0.4,
    hashtags: ['ColdBrewTonic', 'Coffee'],
    keywords: ['cold brew tonic', 'coffee', 'summer drinks'],
    subjects: ['cold brew tonic', 'the cold brew tonic craze', 'a cold brew tonic'],
    facts: [
      'Cold brew tonic mixes coffee with tonic water over ice.',
      'Cafes report cold brew tonic as their best-selling summer drink.',
      'A cold brew tonic needs a 12 hour cold brew first.',
    ],
  },
  // Travel
  {
    id: 'airport-delays',
    name: 'airport delays',
    shape: 'steady',
    rate: 55,
    burstiness: 4,
    mood: -0.7,
    hashtags: ['AirportDelays', 'Travel'],
    keywords: ['airport delays', 'flight', 'airline'],
    subjects: ['the airport delays', 'airport delays this weekend', 'the airport delays at Terminal 2'],
    facts: [
      'Airport delays average 90 minutes as air traffic control staff shortages continue.',
      'Airlines cancelled 120 flights because of airport delays on Friday.',
      'Passengers are told to arrive three hours early due to airport delays.',
    ],
  },
  {
    id: 'lake-varna',
    name: 'Lake Varna',
    shape: 'wave',
    rate: 37,
    burstiness: 1,
    mood: 0.6,
    hashtags: ['LakeVarna', 'Hiking'],
    keywords: ['Lake Varna', 'hiking', 'travel'],
    subjects: ['Lake Varna', 'the Lake Varna trail', 'a trip to Lake Varna'],
    facts: [
      'The Lake Varna hiking trail reopens after a winter of repairs.',
      'Lake Varna hotels report bookings up 30 percent for the summer.',
      'A new train connects the capital to Lake Varna in two hours.',
    ],
    locations: ['Lake Varna'],
  },
  // Fashion
  {
    id: 'linen-season',
    name: 'linen suits',
    shape: 'wave',
    rate: 37,
    burstiness: 1,
    mood: 0.4,
    hashtags: ['LinenSuits', 'Fashion'],
    keywords: ['linen suits', 'fashion', 'summer style'],
    subjects: ['linen suits', 'the linen suits trend', 'summer linen suits'],
    facts: [
      'Linen suits dominate the summer fashion collections this year.',
      'Retailers say linen suits sold out in neutral colours.',
      'Stylists pair linen suits with sneakers for a relaxed look.',
    ],
  },
  // Science
  {
    id: 'perihelion-probe',
    name: 'Perihelion probe',
    shape: 'steady',
    rate: 55,
    burstiness: 3,
    mood: 0.5,
    hashtags: ['PerihelionProbe', 'Space'],
    keywords: ['Perihelion probe', 'space mission', 'spacecraft'],
    subjects: ['the Perihelion probe', 'the Perihelion probe mission', 'Perihelion probe images'],
    facts: [
      'The Perihelion probe spacecraft completed its closest pass of the sun.',
      'Space agency scientists released new Perihelion probe images of the solar corona.',
      'The Perihelion probe mission is extended by four years.',
    ],
  },
  {
    id: 'superconductor',
    name: 'superconductor',
    shape: 'fading',
    rate: 37,
    burstiness: 2,
    mood: -0.1,
    hashtags: ['Superconductor', 'Physics'],
    keywords: ['superconductor', 'physics', 'preprint'],
    subjects: [
      'the superconductor claim',
      'the room temperature superconductor',
      'that superconductor preprint',
    ],
    facts: [
      'A preprint claims a room temperature superconductor made from copper and lead.',
      'Physics labs are trying to replicate the superconductor result.',
      'The superconductor samples will be tested at a national laboratory.',
    ],
    platforms: TECH_PLATFORMS,
  },
];

// ---------------------------------------------------------------------------------------------------------
// Text templates

const POSITIVE = [
  'Really love {s}! {f}',
  '{S} looks great. {f}',
  'So happy about {s}, honestly the best news this week.',
  'Impressed by {s}. {f}',
  '{S} is awesome, well done everyone.',
  'Great to see {s} doing so well. {f}',
  'Cannot wait for {s}, this is fantastic.',
];
const NEGATIVE = [
  '{S} is terrible. {f}',
  'Really angry about {s}, this is awful.',
  'So disappointed with {s}. {f}',
  '{S} keeps getting worse, frustrating and sad.',
  'Hate how {s} turned out. {f}',
  'Really upset about {s}. {f}',
  'Annoyed by {s}, what a horrible week.',
];
const NEUTRAL = [
  '{f}',
  'Just saw this about {s}. {f}',
  'So {s} is happening. {f}',
  'Anyone following {s}? {f}',
];
const QUERY_SUFFIXES = [
  '',
  ' news',
  ' latest',
  ' review',
  ' price',
  ' schedule',
  ' how to watch',
  ' explained',
];
const TOPIC_TAG_CHANCE = 0.75;
const KEYWORD_CHANCE = 0.35;

// ---------------------------------------------------------------------------------------------------------
// Deterministic randomness

function fmix32(h: number): number {
  let x = h | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit hash of integers (any safe integer: the high part is mixed in too). */
function hash(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    const lo = part >>> 0;
    const hi = Math.floor(part / 4_294_967_296) >>> 0;
    h = fmix32(h ^ lo);
    h = fmix32((h + Math.imul(hi, 0x27d4eb2f) + 0x165667b1) >>> 0);
  }
  return h;
}

/** mulberry32: a small fast PRNG with good enough statistics for a simulation. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function pickWeighted<T>(random: Random, items: readonly T[], weights: readonly number[], total: number): T {
  let r = random() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i]!;
    if (r < 0) return items[i]!;
  }
  return items[items.length - 1]!;
}

/** Heavy-tailed non-negative integer with median about `median`, at most 200 × the median. */
function heavyTail(random: Random, median: number): number {
  const u = 1 - random(); // (0, 1]
  return Math.floor(Math.min(200, (u ** -0.6 - 1) / 0.516) * median);
}

// Salts keep the independent streams apart.
const SALT_SLOT = 1;
const SALT_BURST = 2;
const SALT_SHAPE = 3;

// ---------------------------------------------------------------------------------------------------------
// Rates

/** Daily rhythm: 1.35 at 15:00 UTC, 0.65 at 03:00 UTC, average 1. */
function dailyFactor(at: number): number {
  const hour = (((at % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
  return 1 + 0.35 * Math.cos((2 * Math.PI * (hour - 15)) / 24);
}

/** The topic's level over days (independent of the daily rhythm). */
function shapeFactor(seed: number, index: number, topic: DemoTopic, at: number): number {
  if (topic.shape === 'steady') return 1;
  const random = mulberry32(hash(seed, SALT_SHAPE, index));
  const periodMs = (3 + random() * 5) * DAY_MS; // 3–8 days
  const phaseMs = random() * periodMs;
  const position = (((at + phaseMs) % periodMs) + periodMs) % periodMs;
  if (topic.shape === 'fading') {
    // A story breaks at the start of each period and fades with a 1.5-day time constant.
    return 0.2 + 2 * Math.exp(-position / (1.5 * DAY_MS));
  }
  return 1 + 0.7 * Math.sin((2 * Math.PI * position) / periodMs);
}

interface Burst {
  topic: number;
  start: number;
  riseMs: number;
  /** Extra posts per hour at the peak (before the daily rhythm). */
  peak: number;
}

const BURST_WEIGHTS = DEMO_TOPICS.map((t) => t.burstiness);
const BURST_WEIGHT_TOTAL = BURST_WEIGHTS.reduce((a, b) => a + b, 0);
const TOPIC_INDEXES = DEMO_TOPICS.map((_, i) => i);

function epochBursts(seed: number, epoch: number): Burst[] {
  const random = mulberry32(hash(seed, SALT_BURST, epoch));
  const count = random() < 0.35 ? 2 : 1;
  const bursts: Burst[] = [];
  for (let i = 0; i < count; i++) {
    bursts.push({
      topic: pickWeighted(random, TOPIC_INDEXES, BURST_WEIGHTS, BURST_WEIGHT_TOTAL),
      start: epoch * BURST_EPOCH_MS + Math.floor(random() * BURST_EPOCH_MS),
      riseMs: (40 + random() * 40) * MINUTE_MS,
      peak: 250 + random() * 650,
    });
  }
  return bursts;
}

/** Rises as (x/T)² to 1 at x = T, then fades: (x/T)² e^{2(1 − x/T)}. */
function pulse(elapsed: number, riseMs: number): number {
  if (elapsed <= 0 || elapsed >= BURST_SPAN_RISES * riseMs) return 0;
  const x = elapsed / riseMs;
  return x * x * Math.exp(2 * (1 - x));
}

class RateModel {
  private readonly bursts = new Map<number, Burst[]>();
  constructor(private readonly seed: number) {}

  private burstsOf(epoch: number): Burst[] {
    let found = this.bursts.get(epoch);
    if (!found) {
      found = epochBursts(this.seed, epoch);
      if (this.bursts.size > 256) this.bursts.clear();
      this.bursts.set(epoch, found);
    }
    return found;
  }

  /** Posts per hour of each topic at instant `at`. */
  rates(at: number): { base: number[]; total: number[] } {
    const daily = dailyFactor(at);
    const base = DEMO_TOPICS.map((topic, i) => topic.rate * daily * shapeFactor(this.seed, i, topic, at));
    const total = [...base];
    const epoch = Math.floor(at / BURST_EPOCH_MS);
    for (let e = epoch - BURST_LOOKBACK_EPOCHS; e <= epoch; e++) {
      for (const burst of this.burstsOf(e)) {
        total[burst.topic]! += burst.peak * daily * pulse(at - burst.start, burst.riseMs);
      }
    }
    return { base, total };
  }
}

/**
 * Posts per hour of each topic (in `DEMO_TOPICS` order) at simulated instant `at`: `base` without bursts,
 * `total` with them. For tests and tooling.
 */
export function demoTopicRates(seed: number, at: number): { base: number[]; total: number[] } {
  return new RateModel(seed).rates(at);
}

// ---------------------------------------------------------------------------------------------------------
// Posts

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fill(template: string, subject: string, fact: string): string {
  return template.replaceAll('{S}', capitalise(subject)).replaceAll('{s}', subject).replaceAll('{f}', fact);
}

const PLATFORM_WEIGHTS = DEMO_TOPICS.map((topic) =>
  DEMO_PLATFORMS.map((p) => topic.platforms?.[p] ?? DEFAULT_PLATFORMS[p]),
);
const PLATFORM_TOTALS = PLATFORM_WEIGHTS.map((w) => w.reduce((a, b) => a + b, 0));

function engagementFor(
  random: Random,
  platform: DemoPlatform,
  heat: number,
): SourceSignal['engagement'] | undefined {
  const h = Math.sqrt(Math.max(1, heat));
  switch (platform) {
    case 'x':
      return {
        likes: heavyTail(random, 12 * h),
        shares: heavyTail(random, 3 * h),
        comments: heavyTail(random, 2 * h),
        views: heavyTail(random, 900 * h),
      };
    case 'bluesky':
      return {
        likes: heavyTail(random, 8 * h),
        shares: heavyTail(random, 2 * h),
        comments: heavyTail(random, h),
      };
    case 'reddit':
      return { likes: heavyTail(random, 25 * h), comments: heavyTail(random, 6 * h) };
    case 'hackernews':
      return { likes: heavyTail(random, 15 * h), comments: heavyTail(random, 5 * h) };
    case 'news':
      return random() < 0.5 ? { shares: heavyTail(random, 20 * h) } : undefined;
    default:
      return undefined;
  }
}

function post(
  random: Random,
  topic: DemoTopic,
  topicIndex: number,
  heat: number,
  id: string,
  observedAt: number,
): SourceSignal {
  const platform = pickWeighted(
    random,
    DEMO_PLATFORMS,
    PLATFORM_WEIGHTS[topicIndex]!,
    PLATFORM_TOTALS[topicIndex]!,
  );
  const subject = pick(random, topic.subjects);
  const factIndex = Math.floor(random() * topic.facts.length);
  const fact = topic.facts[factIndex]!;
  // News leads with one fact (the headline) and goes on with another.
  const otherFact =
    topic.facts[(factIndex + 1 + Math.floor(random() * (topic.facts.length - 1))) % topic.facts.length]!;
  const signal: SourceSignal = {
    source: platform,
    external_id: id,
    text: '',
    observed_at: observedAt,
    lang: 'en',
  };

  if (platform === 'search') {
    const keyword = pick(random, [topic.name, ...topic.keywords.filter((k) => k !== topic.name)]);
    signal.text = `${topic.name.toLowerCase()}${keyword === topic.name ? pick(random, QUERY_SUFFIXES) : ` ${keyword.toLowerCase()}`}`;
    signal.keywords = [keyword];
    const views = heavyTail(random, 200 * Math.sqrt(Math.max(1, heat)));
    signal.engagement = { views };
    return signal;
  }

  // Sentiment: the topic's mood tilts the mix; news is mostly neutral.
  const positive = 0.38 + 0.25 * topic.mood;
  const negative = 0.27 - 0.25 * topic.mood;
  const roll = random() * (platform === 'news' ? 2.2 : 1);
  const bodyFact = platform === 'news' ? otherFact : fact;
  let sentence: string;
  if (roll < positive) sentence = fill(pick(random, POSITIVE), subject, bodyFact);
  else if (roll < positive + negative) sentence = fill(pick(random, NEGATIVE), subject, bodyFact);
  else sentence = fill(pick(random, NEUTRAL), subject, bodyFact);

  const tags: string[] = [];
  const tagChance =
    platform === 'x' || platform === 'bluesky' ? TOPIC_TAG_CHANCE : platform === 'reddit' ? 0.2 : 0;
  if (random() < tagChance) {
    tags.push(`#${topic.hashtags[0]}`);
    if (random() < 0.6) tags.push(`#${topic.hashtags[1] ?? topic.hashtags[0]}`);
  }

  switch (platform) {
    case 'news':
      signal.title = fact;
      signal.text = `${fact} ${sentence}`;
      signal.author = `demo_newsdesk_${1 + Math.floor(random() * 40)}`;
      break;
    case 'hackernews':
      signal.title = fact;
      signal.text = sentence;
      signal.author = `demo_user_${1 + Math.floor(random() * 5000)}`;
      break;
    case 'reddit':
      signal.title = random() < 0.5 ? fact : `What do you think about ${subject}?`;
      signal.text = tags.length > 0 ? `${sentence} ${tags.join(' ')}` : sentence;
      signal.author = `demo_user_${1 + Math.floor(random() * 5000)}`;
      break;
    default:
      signal.text = tags.length > 0 ? `${sentence} ${tags.join(' ')}` : sentence;
      signal.author = `demo_user_${1 + Math.floor(random() * 5000)}`;
  }
  if (platform === 'reddit' || platform === 'news' || platform === 'hackernews') {
    signal.url = `https://example.com/demo/${id}`;
  }
  const keywordChance = platform === 'news' ? 0.6 : KEYWORD_CHANCE;
  if (random() < keywordChance) {
    const first = pick(random, topic.keywords);
    const second = pick(random, topic.keywords);
    signal.keywords = first === second ? [first] : [first, second];
  }
  if (topic.locations && random() < 0.5) signal.location = pick(random, topic.locations);
  const engagement = engagementFor(random, platform, heat);
  if (engagement) signal.engagement = engagement;
  return signal;
}

function slotSignals(seed: number, slot: number, model: RateModel): SourceSignal[] {
  const random = mulberry32(hash(seed, SALT_SLOT, slot));
  const start = slot * DEMO_SLOT_MS;
  const { base, total } = model.rates(start + DEMO_SLOT_MS / 2);
  // The slot's volume follows the rates closely (the expectation rounded up or down at random), so even a
  // quiet 30 seconds has enough posts; which topics they are about is drawn by rate.
  let sum = 0;
  for (const rate of total) sum += rate;
  const expected = (sum * DEMO_SLOT_MS) / HOUR_MS;
  const count = Math.floor(expected) + (random() < expected - Math.floor(expected) ? 1 : 0);
  const drafts: { offset: number; topic: number; heat: number }[] = [];
  for (let n = 0; n < count; n++) {
    const topic = pickWeighted(random, TOPIC_INDEXES, total, sum);
    const heat = base[topic]! > 0 ? total[topic]! / base[topic]! : 1;
    drafts.push({ offset: Math.floor(random() * DEMO_SLOT_MS), topic, heat });
  }
  drafts.sort((a, b) => a.offset - b.offset || a.topic - b.topic);
  return drafts.map((draft, n) =>
    post(
      random,
      DEMO_TOPICS[draft.topic]!,
      draft.topic,
      draft.heat,
      `demo-${slot}-${n}`,
      start + draft.offset,
    ),
  );
}

/**
 * Every simulated post with `observed_at` in [from, to) (epoch ms, simulated time), ordered by time.
 * A pure function of (seed, time): equal arguments give equal output, and adjacent ranges partition it.
 */
export function demoSignals(options: { seed: number; from: number; to: number }): SourceSignal[] {
  const { seed, from, to } = options;
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) return [];
  const model = new RateModel(seed);
  const out: SourceSignal[] = [];
  const first = Math.floor(from / DEMO_SLOT_MS);
  const last = Math.floor((to - 1) / DEMO_SLOT_MS);
  for (let slot = first; slot <= last; slot++) {
    for (const signal of slotSignals(seed, slot, model)) {
      if (signal.observed_at >= from && signal.observed_at < to) out.push(signal);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The polling source

/** The first poll reaches back this far (simulated), so it already yields posts. */
export const DEMO_LOOKBACK_MS = 5 * MINUTE_MS;
/** One poll emits at most this much simulated time; the cursor catches up over later polls. */
export const DEMO_MAX_POLL_MS = 10 * MINUTE_MS;
/** After downtime the simulator skips ahead rather than replaying more than this (simulated). */
export const DEMO_MAX_BACKLOG_MS = HOUR_MS;

/** Cursor: the simulated instant emitted up to, and the real instant it maps to. */
interface DemoCursor {
  sim: number;
  real: number;
}

function parseCursor(cursor: string | null): DemoCursor | null {
  if (cursor === null) return null;
  try {
    const parsed = JSON.parse(cursor) as Partial<DemoCursor>;
    if (Number.isFinite(parsed.sim) && Number.isFinite(parsed.real)) {
      return { sim: parsed.sim!, real: parsed.real! };
    }
  } catch {
    // An unreadable cursor starts the simulation afresh.
  }
  return null;
}

/**
 * The demo simulator as a polling source.
 *
 * Simulated time runs `speed` times faster than real time: on the first poll it is
 * `startedAt + (now − startedAt) × speed`. The cursor stores the simulated instant emitted up to together
 * with the real instant it corresponds to, and later polls continue that line (`sim = cursor.sim +
 * (now − cursor.real) × speed`), so simulated time is continuous across restarts and a high speed never
 * leaves the cursor stranded in the simulated future.
 *
 * `observed_at` of an emitted post is the real instant corresponding to its simulated instant (rounded
 * down), so it is never later than `now`; at speed 60 a real minute carries a simulated hour of posts.
 * The first poll starts 5 simulated minutes back; one poll covers at most 10 simulated minutes; after a
 * long stop the simulator replays at most one simulated hour.
 */
export function demoSource(options: {
  seed: number;
  speed: number;
  startedAt: number;
  intervalMs?: number;
}): PollingSource {
  const { seed, startedAt } = options;
  const speed = options.speed > 0 ? options.speed : 1;
  return {
    id: 'demo',
    name: 'Demo simulator',
    attribution: 'Crestwatch demo simulator (synthetic data)',
    // Generated here from a seed: there is no third party whose licence could apply.
    licence_url: '',
    coverage:
      'Synthetic posts from a seeded simulator of reddit, x, news, hackernews, bluesky and search activity ' +
      'about fictional topics; no real platform is contacted and no licence applies.',
    kind: 'poll',
    intervalMs: options.intervalMs ?? 2000,
    async poll(context: SourceContext): Promise<PollResult> {
      const now = context.now;
      const anchor = parseCursor(context.cursor) ?? {
        sim: startedAt + (now - startedAt) * speed - DEMO_LOOKBACK_MS,
        real: now - DEMO_LOOKBACK_MS / speed,
      };
      const simNow = anchor.sim + (now - anchor.real) * speed;
      const realOf = (sim: number) => anchor.real + (sim - anchor.sim) / speed;
      if (simNow <= anchor.sim) {
        return { signals: [], cursor: JSON.stringify(anchor) };
      }
      const from = Math.max(anchor.sim, simNow - DEMO_MAX_BACKLOG_MS);
      const to = Math.min(simNow, from + DEMO_MAX_POLL_MS);
      const signals = demoSignals({ seed, from, to });
      for (const signal of signals) {
        signal.observed_at = Math.min(now, Math.floor(realOf(signal.observed_at)));
      }
      const cursor: DemoCursor = { sim: to, real: realOf(to) };
      return { signals, cursor: JSON.stringify(cursor) };
    },
  };
}
