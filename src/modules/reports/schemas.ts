// Schemas of the report routes, session info and the public demo signals.
import Type, { type TSchema } from 'typebox';
import { DateOnly, DateTime, FreeForm, Nullable, StrictObject } from '../../platform/schemas.ts';
import {
  CRISIS_DIMENSIONS,
  CRISIS_METRICS,
  DATASETS,
  MAX_HOURLY_WINDOW_HOURS,
  TREND_DIMENSIONS,
  TREND_METRICS,
} from './catalogue.ts';
import { DEMO_MODES } from './demo-signals.ts';

/** Rows a report may hold. */
const MAX_REPORT_ROWS = 10_000;
export const DEFAULT_REPORT_ROWS = 1000;

const PERIODS = ['1h', '24h', '7d', '30d'] as const;
const SENTIMENTS = ['positive', 'negative', 'neutral', 'mixed'] as const;
const STAGES = ['emerging', 'rising', 'peaking', 'declining', 'stable'] as const;
const TYPES = ['hashtag', 'keyword', 'entity', 'query', 'hazard'] as const;

const code = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ');

/** One value or a list of them (up to `max`). */
const OneOrMany = <T extends TSchema>(item: T, max: number, description: string) =>
  Type.Union([item, Type.Array(item, { minItems: 1, maxItems: max })], { description });

const Name = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

const Filters = StrictObject(
  {
    category: Type.Optional(
      OneOrMany(
        Type.String({ minLength: 1, maxLength: 120 }),
        20,
        'Trends: category names (`Technology/AI`) or slugs (`technology-ai`); a parent matches its children.',
      ),
    ),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Trends: case-insensitive text in the trend name. Crisis events: text in the title, impacted entity or ' +
          'keywords.',
      }),
    ),
    keyword: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Another name for `search`.' }),
    ),
    keywords: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 1,
        maxItems: 20,
        description:
          'Trends: names holding any of these as whole words, compared as trend keys are (`#OpenAI` = `openai`).',
      }),
    ),
    type: Type.Optional(
      OneOrMany(Type.Enum([...TYPES]), TYPES.length, `Trends: trend types (${code(TYPES)}).`),
    ),
    platform: Type.Optional(
      OneOrMany(
        Type.String({ minLength: 1, maxLength: 64 }),
        20,
        'Trends: count only mentions from these platforms (e.g. `reddit`, `news`).',
      ),
    ),
    min_volume: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1_000_000_000,
        description: 'Trends: only trends with at least this many (counted) mentions in the window.',
      }),
    ),
    sentiment_category: Type.Optional(
      OneOrMany(
        Type.Enum([...SENTIMENTS]),
        SENTIMENTS.length,
        'Trends: only trends whose sentiment over the window falls in these categories.',
      ),
    ),
    lifecycle_stage: Type.Optional(
      OneOrMany(Type.Enum([...STAGES]), STAGES.length, 'Trends: only trends in these lifecycle stages.'),
    ),
    trend_id: Type.Optional(
      OneOrMany(
        Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991 }),
        500,
        'Trends: only these trends (ids).',
      ),
    ),
    severity: Type.Optional(
      Type.Enum(['all', 'low', 'medium', 'high', 'critical'], { description: 'Crisis events.' }),
    ),
    status: Type.Optional(
      Type.Enum(['all', 'active', 'acknowledged', 'archived'], { description: 'Crisis events.' }),
    ),
    review_status: Type.Optional(
      Type.Enum(['all', 'unreviewed', 'unconfirmed', 'supported', 'disputed', 'needs_review'], {
        description: 'Crisis events.',
      }),
    ),
    freshness: Type.Optional(
      Type.Enum(['all', 'fresh', 'stale', 'missing'], { description: 'Crisis events.' }),
    ),
    source: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'Crisis events: `all`, `social` or a source id (x, reddit, bluesky, news, hackernews, usgs, environment_agency).',
      }),
    ),
    location: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Crisis events: text in the location.' }),
    ),
  },
  { description: 'Filters; each applies to the dataset named in its description.' },
);

const Period = Type.Enum([...PERIODS], {
  description:
    'The window, ending now, in whole UTC hour buckets as `GET /api/trends` counts them (`24h` = the current ' +
    'hour and the 23 before). Default `24h` for trends, `30d` for crisis events. Replaced by ' +
    '`start_date`/`end_date`.',
});

export const ReportRequest = StrictObject(
  {
    dataset: Type.Optional(
      Type.Enum([...DATASETS], {
        default: 'trends',
        description: '`trends` (default, the shared feed) or `crisis_events` (your own events only).',
      }),
    ),
    dimensions: Type.Optional(
      Type.Array(Name('A dimension name.'), {
        maxItems: 10,
        description:
          `Columns to group rows by. Trends: ${code(TREND_DIMENSIONS)} (\`trend_id\`/\`trend_name\` give one row ` +
          'per trend; `day` is a UTC date, `hour` an hour start, for windows of at most ' +
          `${MAX_HOURLY_WINDOW_HOURS / 24} days). Crisis events: ${code(CRISIS_DIMENSIONS)}. None: one total row.`,
      }),
    ),
    metrics: Type.Optional(
      Type.Array(Name('A metric name.'), {
        minItems: 1,
        maxItems: 16,
        description:
          `Values computed for each row. Trends (default \`volume\`): ${code(TREND_METRICS)}. Crisis events ` +
          `(default \`event_count\`): ${code(CRISIS_METRICS)}.`,
      }),
    ),
    filters: Type.Optional(Filters),
    time_period: Type.Optional(Period),
    period: Type.Optional({ ...Period, description: 'Crestwatch’s name for `time_period`.' }),
    start_date: Type.Optional(
      DateOnly({ description: 'First UTC day of a custom window (inclusive); replaces `time_period`.' }),
    ),
    end_date: Type.Optional(
      DateOnly({ description: 'Last UTC day of a custom window (inclusive; default today; ≤ 400 days).' }),
    ),
    sort_by: Type.Optional(
      Name(
        'A column (dimension or metric) of the report. Default: `day` or `hour` ascending when asked for, else ' +
          'the first metric descending.',
      ),
    ),
    order: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'Sort direction.' })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_REPORT_ROWS,
        default: DEFAULT_REPORT_ROWS,
        description: `Rows at most (1–${MAX_REPORT_ROWS}, default ${DEFAULT_REPORT_ROWS}).`,
      }),
    ),
  },
  { title: 'CustomReportRequest' },
);

const ReportMeta = Type.Object(
  {
    row_count: Type.Integer({ description: 'Rows in this answer.' }),
    limit_applied: Nullable(
      Type.Integer({
        description: 'The row limit, when it cut rows off (`total_rows` > `row_count`); else null.',
      }),
    ),
    time_period: Type.String({ description: 'The window: `1h`, `24h`, `7d`, `30d`, or `custom` for dates.' }),
    start_date: Nullable(DateOnly({ description: 'First day of a custom window; null for a period.' })),
    end_date: Nullable(DateOnly({ description: 'Last day of a custom window; null for a period.' })),
    usage_count: Nullable(
      Type.Integer({
        description:
          'Always null: reports are not metered apart from requests (each counts once against the daily quota).',
      }),
    ),
    usage_limit: Nullable(Type.Integer({ description: 'Always null (no separate report allowance).' })),
    dataset: Type.Enum([...DATASETS]),
    total_rows: Type.Integer({ description: 'Rows before the limit.' }),
    sort_by: Type.String(),
    order: Type.Enum(['asc', 'desc']),
    window_start: DateTime({ description: 'Start of the window the numbers cover.' }),
    window_end: DateTime({
      description: 'End of the window (now, for a window that includes the current hour).',
    }),
    generated_at: DateTime(),
  },
  { title: 'ReportMeta' },
);

export const CustomReport = Type.Object(
  {
    columns: Type.Array(Type.String(), { description: 'The dimensions, then the metrics, as asked.' }),
    rows: Type.Array(
      FreeForm({
        description: 'One object per row, keyed by column; a value is a string, a number or null.',
      }),
    ),
    meta: ReportMeta,
  },
  { title: 'CustomReport' },
);

/** Session info takes no parameters (unknown ones are a 400). */
export const SessionInfoQuery = StrictObject({});

export const SessionInfoResponse = Type.Object(
  {
    country: Type.String({
      minLength: 2,
      maxLength: 2,
      description: 'ISO 3166-1 alpha-2 country: the operator’s `DEFAULT_COUNTRY` (no geo-IP lookup).',
    }),
  },
  { title: 'SessionInfoResponse' },
);

export const DemoSignalsQuery = StrictObject({
  mode: Type.Optional(
    Type.Enum([...DEMO_MODES], {
      default: 'paid-media',
      description:
        '`paid-media` (default): posts and news items; `resilience`: USGS and Environment Agency observations.',
    }),
  ),
});

export const DemoSignalsResponse = Type.Object(
  {
    signals: Type.Array(
      Type.Object({
        title: Type.String(),
        source_url: Type.String({ format: 'uri', description: 'The http(s) link to the source item.' }),
        source: Type.String({ description: 'The platform or feed, e.g. `reddit`, `news`, `usgs`.' }),
        observed_at: DateTime(),
        freshness: Type.Enum(['fresh', 'stale'], {
          description:
            'Within the source’s freshness window (social 6 h, news 24 h, usgs 24 h, environment_agency 12 h) or not.',
        }),
        limitations: Type.String({ description: 'One sentence on what the observation cannot show.' }),
      }),
      { maxItems: 3 },
    ),
    mode: Type.Enum([...DEMO_MODES]),
    fetched_at: DateTime({ description: 'When this answer was assembled (answers are reused for 60 s).' }),
    schema_version: Type.Literal('1'),
  },
  { title: 'DemoSignalsResponse' },
);
