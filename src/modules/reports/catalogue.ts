// What a custom report may ask for: the datasets, their dimensions and metrics, and which combinations have an
// honest meaning. Pure: the request is checked and turned into a plan here, before anything is read.
import { badRequest } from '../../platform/errors.ts';

export const DATASETS = ['trends', 'crisis_events'] as const;
type Dataset = (typeof DATASETS)[number];

/** Trend dimensions. `trend_id`/`trend_name` make one row per trend; `platform`, `day`, `hour` split mentions. */
export const TREND_DIMENSIONS = [
  'trend_id',
  'trend_name',
  'category',
  'type',
  'sentiment_category',
  'overall_trend',
  'lifecycle_stage',
  'platform',
  'day',
  'hour',
] as const;
export type TrendDimension = (typeof TREND_DIMENSIONS)[number];

export const TREND_METRICS = [
  'volume',
  'previous_volume',
  'absolute_change',
  'growth',
  'average_velocity',
  'sentiment',
  'positive_mentions',
  'negative_mentions',
  'trend_count',
  'velocity_score',
  'avg_velocity_score',
  'max_velocity_score',
  'velocity_1h',
  'trend_stability',
] as const;
export type TrendMetric = (typeof TREND_METRICS)[number];

export const CRISIS_DIMENSIONS = [
  'severity',
  'status',
  'review_status',
  'freshness',
  'detection_method',
  'source_state',
  'impacted_entity',
  'day',
] as const;
export type CrisisDimension = (typeof CRISIS_DIMENSIONS)[number];

export const CRISIS_METRICS = ['event_count', 'avg_evidence_completeness'] as const;
export type CrisisMetric = (typeof CRISIS_METRICS)[number];

/** Dimensions that split a trend's mentions (bucket columns) rather than group whole trends. */
export const BUCKET_DIMENSIONS = ['platform', 'day', 'hour'] as const;
export type BucketDimension = (typeof BUCKET_DIMENSIONS)[number];

/** Metrics that compare with the previous window: meaningless for one day or hour of the window. */
const COMPARISON_METRICS: readonly TrendMetric[] = ['previous_volume', 'absolute_change', 'growth'];
/** Metrics of a trend's own computed series (whole window, all platforms): a trend's numbers, not mentions'. */
const WHOLE_TREND_METRICS: readonly TrendMetric[] = [
  'velocity_score',
  'avg_velocity_score',
  'max_velocity_score',
  'velocity_1h',
  'trend_stability',
];
/** Of those, the ones that only exist for one trend (no sum or mean of them is defined here). */
const PER_TREND_METRICS: readonly TrendMetric[] = ['velocity_score', 'trend_stability'];

/** The hour dimension is offered for windows of at most this many hours (31 days). */
export const MAX_HOURLY_WINDOW_HOURS = 31 * 24;

const TREND_FILTERS = [
  'category',
  'search',
  'keyword',
  'keywords',
  'type',
  'platform',
  'min_volume',
  'sentiment_category',
  'lifecycle_stage',
  'trend_id',
] as const;
const CRISIS_FILTERS = [
  'search',
  'keyword',
  'severity',
  'status',
  'review_status',
  'freshness',
  'source',
  'location',
] as const;

export interface TrendPlan {
  dataset: 'trends';
  dimensions: TrendDimension[];
  metrics: TrendMetric[];
  /** One row per trend (`trend_id` or `trend_name` asked for). */
  perTrend: boolean;
  /** Bucket dimensions asked for, in request order. */
  buckets: BucketDimension[];
  /** The previous window's volume is needed (comparisons, `overall_trend`). */
  previous: boolean;
  /** Each trend's computed metrics (velocity, stability, lifecycle) are needed. */
  whole: boolean;
}

export interface CrisisPlan {
  dataset: 'crisis_events';
  dimensions: CrisisDimension[];
  metrics: CrisisMetric[];
}

interface PlanInput {
  dataset?: Dataset;
  dimensions?: string[];
  metrics?: string[];
  filters?: Record<string, unknown>;
}

function listed<T extends string>(
  field: 'dimensions' | 'metrics',
  values: string[],
  known: readonly T[],
  dataset: Dataset,
  /** The other list's names, for a hint when a name was put in the wrong list. */
  others: readonly string[],
): T[] {
  const seen = new Set<string>();
  values.forEach((value, i) => {
    if (!(known as readonly string[]).includes(value)) {
      const noun = field === 'dimensions' ? 'dimension' : 'metric';
      const hint = others.includes(value)
        ? ` (it is a ${noun === 'dimension' ? 'metric: list it in metrics' : 'dimension: list it in dimensions'})`
        : '';
      throw badRequest(
        `${field}[${i}] "${value}" is not a ${noun} of ${dataset} reports${hint}; known: ${known.join(', ')}.`,
        `${field}[${i}]`,
        `unknown_${noun}`,
      );
    }
    if (seen.has(value)) throw badRequest(`${field}[${i}] "${value}" is listed twice.`, `${field}[${i}]`);
    seen.add(value);
  });
  return values as T[];
}

/** Checks the names and combinations a report asks for; every refusal names the field at fault. */
export function planReport(input: PlanInput): TrendPlan | CrisisPlan {
  const dataset = input.dataset ?? 'trends';
  const filters = input.filters ?? {};
  const allowedFilters: readonly string[] = dataset === 'trends' ? TREND_FILTERS : CRISIS_FILTERS;
  for (const name of Object.keys(filters)) {
    if (filters[name] !== undefined && !allowedFilters.includes(name)) {
      throw badRequest(
        `filters.${name} does not apply to ${dataset} reports; their filters are: ${allowedFilters.join(', ')}.`,
        `filters.${name}`,
      );
    }
  }
  if (dataset === 'crisis_events') {
    return {
      dataset,
      dimensions: listed('dimensions', input.dimensions ?? [], CRISIS_DIMENSIONS, dataset, CRISIS_METRICS),
      metrics: listed(
        'metrics',
        input.metrics ?? ['event_count'],
        CRISIS_METRICS,
        dataset,
        CRISIS_DIMENSIONS,
      ),
    };
  }
  const dimensions = listed('dimensions', input.dimensions ?? [], TREND_DIMENSIONS, dataset, TREND_METRICS);
  const metrics = listed('metrics', input.metrics ?? ['volume'], TREND_METRICS, dataset, TREND_DIMENSIONS);
  const buckets = dimensions.filter((d): d is BucketDimension =>
    (BUCKET_DIMENSIONS as readonly string[]).includes(d),
  );
  const perTrend = dimensions.includes('trend_id') || dimensions.includes('trend_name');
  const timed = buckets.filter((d) => d !== 'platform');
  metrics.forEach((metric, i) => {
    const at = `metrics[${i}]`;
    if (COMPARISON_METRICS.includes(metric) && timed.length > 0) {
      throw badRequest(
        `${at} "${metric}" compares the window with the one before it, so it cannot be split by ` +
          `${timed.join(' or ')}; remove ${timed.join(' and ')} from dimensions for it.`,
        at,
        'unsupported_combination',
      );
    }
    if (WHOLE_TREND_METRICS.includes(metric)) {
      if (buckets.length > 0) {
        throw badRequest(
          `${at} "${metric}" is computed from each trend's whole series (all platforms, the whole window), so it ` +
            `cannot be split by ${buckets.join(', ')}.`,
          at,
          'unsupported_combination',
        );
      }
      if (filters.platform !== undefined) {
        throw badRequest(
          `filters.platform cannot be combined with ${at} "${metric}", which is computed over all platforms.`,
          'filters.platform',
          'unsupported_combination',
        );
      }
    }
    if (PER_TREND_METRICS.includes(metric) && !perTrend) {
      throw badRequest(
        `${at} "${metric}" is a per-trend metric: add trend_id or trend_name to dimensions` +
          (metric === 'velocity_score'
            ? ', or ask for avg_velocity_score / max_velocity_score of groups.'
            : '.'),
        at,
        'unsupported_combination',
      );
    }
  });
  const whole =
    metrics.some((m) => WHOLE_TREND_METRICS.includes(m)) ||
    dimensions.includes('lifecycle_stage') ||
    filters.lifecycle_stage !== undefined;
  if (whole && filters.platform !== undefined && !metrics.some((m) => WHOLE_TREND_METRICS.includes(m))) {
    throw badRequest(
      'filters.platform cannot be combined with lifecycle_stage, which is computed over all platforms.',
      'filters.platform',
      'unsupported_combination',
    );
  }
  const previous =
    metrics.some((m) => COMPARISON_METRICS.includes(m)) || dimensions.includes('overall_trend');
  return { dataset, dimensions, metrics, perTrend, buckets, previous, whole };
}
