// The demo simulator's data, read from data/ (data/README.md describes each file): fictional topics (brands,
// places, events) with their phrases and platforms, and the text templates posts are written from. demo.ts
// holds the simulation itself.
import Type, { type Static } from 'typebox';
import { DataFileError, loadJson } from '../../../platform/data-files.ts';

export const DEMO_PLATFORMS = ['reddit', 'x', 'news', 'hackernews', 'bluesky', 'search'] as const;
export type DemoPlatform = (typeof DEMO_PLATFORMS)[number];

const Text = Type.String({ minLength: 1 });
const Texts = Type.Array(Text, { minItems: 1 });
const Weight = Type.Number({ minimum: 0 });
const PlatformWeights = Type.Object(
  { reddit: Weight, x: Weight, news: Weight, hackernews: Weight, bluesky: Weight, search: Weight },
  { additionalProperties: false },
);
const SomePlatformWeights = Type.Partial(PlatformWeights);

const topicFields = {
  id: Text,
  /** Canonical name; every post about the topic mentions it (case-insensitively). */
  name: Text,
  shape: Type.Union([Type.Literal('steady'), Type.Literal('fading'), Type.Literal('wave')]),
  /** Posts per hour at average daily activity, outside bursts. */
  rate: Type.Number({ exclusiveMinimum: 0 }),
  /** How likely the topic is to be picked for a burst (relative). */
  burstiness: Weight,
  /** -1 (mostly negative posts) … 1 (mostly positive). */
  mood: Type.Number({ minimum: -1, maximum: 1 }),
  hashtags: Texts,
  keywords: Texts,
  /** Noun phrases naming the topic; each contains `name`. */
  subjects: Texts,
  /** Neutral sentences carrying the topic's category words; each contains `name`. */
  facts: Texts,
  locations: Type.Optional(Texts),
};
const DemoTopicSchema = Type.Object(
  {
    ...topicFields,
    /** Platform weights; missing platforms use the defaults. */
    platforms: Type.Optional(SomePlatformWeights),
  },
  { additionalProperties: false },
);
export type DemoTopic = Static<typeof DemoTopicSchema>;

/** Every file of a data folder laid out as data/ is, checked (DataFileError names the file that is wrong). */
export function readDemoData(dir: URL) {
  const file = (name: string) => new URL(name, dir);
  const platforms = loadJson(
    file('demo-platforms.json'),
    Type.Object(
      {
        /** Weights of a topic that names no profile and gives none of its own. */
        default: PlatformWeights,
        /** Named weight sets topics share (`"platforms": "tech"`). */
        profiles: Type.Record(Text, SomePlatformWeights),
      },
      { additionalProperties: false },
    ),
  );
  // A topic's `platforms` may name a profile: resolved to its weights.
  const topics: DemoTopic[] = loadJson(
    file('demo-topics.json'),
    Type.Array(
      Type.Object(
        { ...topicFields, platforms: Type.Optional(Type.Union([Text, SomePlatformWeights])) },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  ).map((topic, i) => {
    if (typeof topic.platforms !== 'string') return topic as DemoTopic;
    const profile = platforms.profiles[topic.platforms];
    if (profile === undefined)
      throw new DataFileError(
        file('demo-topics.json'),
        '',
        `platforms "${topic.platforms}" at /${i} is no profile`,
      );
    return { ...topic, platforms: profile };
  });
  const templates = loadJson(
    file('demo-templates.json'),
    Type.Object(
      {
        positive: Texts,
        negative: Texts,
        neutral: Texts,
        query_suffixes: Type.Array(Type.String(), { minItems: 1 }),
      },
      { additionalProperties: false },
    ),
  );
  return { defaultPlatforms: platforms.default, topics, templates };
}

const DEMO_DATA = readDemoData(new URL('./data/', import.meta.url));

export const DEFAULT_PLATFORMS: Record<DemoPlatform, number> = DEMO_DATA.defaultPlatforms;
export const DEMO_TOPICS: readonly DemoTopic[] = DEMO_DATA.topics;
// Templates: `{s}` the subject, `{S}` it capitalised, `{f}` a fact.
export const POSITIVE = DEMO_DATA.templates.positive;
export const NEGATIVE = DEMO_DATA.templates.negative;
export const NEUTRAL = DEMO_DATA.templates.neutral;
/** What a search query adds after a topic's name ('' for the name alone). */
export const QUERY_SUFFIXES = DEMO_DATA.templates.query_suffixes;
