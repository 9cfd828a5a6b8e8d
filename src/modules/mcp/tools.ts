// The MCP tool catalogue: each tool wraps one API route (its input schema is the route's, see schemas.ts), apart
// from `crisis_gate`, which answers the social-response gating question the workflow push asks.

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  /** Arguments the tool requires beyond those its route's schema requires. */
  required?: readonly string[];
  /** The route the tool wraps (`GET /api/trends/:trend_id`), or null for a composite answer. */
  route: { method: 'GET' | 'POST'; url: string } | null;
  annotations: ToolAnnotations;
  /** A one-paragraph reading of the result for a model; the result itself is the structured content. */
  summarize: (result: Record<string, unknown>) => string;
}

const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Adds something (an insight, a review); removes and overwrites nothing. */
const ADDS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

type Row = Record<string, unknown>;
const rows = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
const num = (value: unknown): string =>
  typeof value === 'number' ? String(Math.round(value * 10) / 10) : '—';

/** The window the velocity score comes from, " over 6h". */
const windowOf = (t: Row): string =>
  typeof t.velocity_window === 'string' ? ` over ${t.velocity_window}` : '';

/** The phrases folded into a trend, " (also: #waldocanyon, Waldo Canyon Fire)". */
const aliasesOf = (t: Row): string =>
  Array.isArray(t.aliases) && t.aliases.length > 0 ? ` (also: ${t.aliases.join(', ')})` : '';

function trendLine(t: Row): string {
  return (
    `#${t.id} ${t.title}${aliasesOf(t)} (velocity ${num(t.velocity_score)}${windowOf(t)}, volume ${num(t.volume)}, ` +
    `${t.lifecycle_stage ?? 'no stage'}, ${t.sentiment_category ?? 'no sentiment'})`
  );
}

function eventLine(e: Row): string {
  return `#${e.id} ${e.title} — ${e.severity}, ${e.status}, review ${e.review_status ?? 'unreviewed'}`;
}

function listOf(items: string[], total: unknown, noun: string): string {
  if (items.length === 0) return `No ${noun} match.`;
  const head = items.slice(0, 5).join('; ');
  const more = items.length > 5 ? `; and ${items.length - 5} more in this page` : '';
  const of = typeof total === 'number' ? ` of ${total}` : '';
  return `${items.length}${of} ${noun}: ${head}${more}.`;
}

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'list_trends',
    title: 'List trends',
    description:
      'Trends with their explainable metrics (volume, growth, velocity score, lifecycle stage, sentiment, ' +
      'platforms), filtered and sorted as `GET /api/trends` does.',
    route: { method: 'GET', url: '/api/trends' },
    annotations: READ,
    summarize: (r) => listOf(rows(r.trends).map(trendLine), r.total, 'trends'),
  },
  {
    name: 'get_trend',
    title: 'Get a trend',
    description: 'One trend by id, with every metric and its explanation (`meta_description`).',
    route: { method: 'GET', url: '/api/trends/:trend_id' },
    annotations: READ,
    summarize: (r) => `${trendLine(r)}. ${r.meta_description ?? ''}`.trim(),
  },
  {
    name: 'get_trend_analytics',
    title: 'Trend analytics',
    description:
      "A trend's volume over time (hourly or daily points) with the change against the previous window.",
    route: { method: 'GET', url: '/api/trends/:trend_id/analytics' },
    annotations: READ,
    summarize: (r) =>
      `${r.name}: ${num(r.current_volume)} mentions in the window (previous ${num(r.previous_volume)}), ` +
      `${rows(r.data).length} points, ${r.velocity_trend ?? 'steady'}.`,
  },
  {
    name: 'autocomplete_trends',
    title: 'Autocomplete trend names',
    description: 'Trend names starting with the given text, most active first.',
    route: { method: 'GET', url: '/api/trends/autocomplete' },
    // The route takes `query` or upstream's `q`, so its schema requires neither; the tool takes `query`.
    required: ['query'],
    annotations: READ,
    summarize: (r) =>
      listOf(
        rows(r.results).map((x) => `${x.name} (${x.category ?? 'no category'}, volume ${num(x.volume)})`),
        undefined,
        'names',
      ),
  },
  {
    name: 'list_categories',
    title: 'List categories',
    description: 'The category taxonomy with the number of trends in each.',
    route: { method: 'GET', url: '/api/trends/categories' },
    annotations: READ,
    summarize: (r) =>
      listOf(
        rows(r.categories).map((c) => `${c.name} (${c.trend_count})`),
        undefined,
        'categories',
      ),
  },
  {
    name: 'get_ai_insight',
    title: 'Get the AI insight for a trend',
    description:
      'Your latest AI insight for a trend (null when none was generated yet; use generate_ai_insight).',
    route: { method: 'GET', url: '/api/trends/:trend_id/ai-insights' },
    annotations: READ,
    summarize: (r) =>
      r.result === null
        ? 'No insight yet for this trend; generate_ai_insight makes one.'
        : `Insight (${r.llm_model_used ?? 'offline'}): sentiment ${r.sentiment_category ?? '—'}; themes ` +
          `${Array.isArray(r.key_themes) ? (r.key_themes as unknown[]).slice(0, 5).join(', ') : '—'}.`,
  },
  {
    name: 'generate_ai_insight',
    title: 'Generate an AI insight',
    description:
      'Queues an insight generation for a trend (counts against the monthly insight limit) and waits for it, up ' +
      'to `wait_seconds` (default 30); returns the insight, or the task when it is still running.',
    route: { method: 'POST', url: '/api/trends/:trend_id/ai-insights/generate' },
    annotations: ADDS,
    summarize: (r) =>
      r.insight
        ? `Generated (task ${r.task_id}): ${(r.insight as Row).sentiment_summary ?? 'insight ready'}`
        : `Task ${r.task_id} is ${r.status}; call get_ai_insight later.`,
  },
  {
    name: 'search_insights',
    title: 'Search AI insights',
    description:
      'Your latest insight per trend, filtered by text, theme, audience keyword, sentiment or category.',
    route: { method: 'GET', url: '/api/insights/search' },
    annotations: READ,
    summarize: (r) =>
      listOf(
        rows(r.trends).map((i) => `${i.trend_name ?? i.title} (${i.sentiment_category ?? '—'})`),
        r.total,
        'insights',
      ),
  },
  {
    name: 'list_recommendations',
    title: 'List recommendations',
    description:
      'What to do next: prioritised recommendations, each with a decision brief (why now, evidence).',
    route: { method: 'GET', url: '/api/intelligence/recommendations' },
    annotations: READ,
    summarize: (r) =>
      listOf(
        rows(r.recommendations).map((x) => `#${x.id} ${x.title} (${x.priority}, ${x.status})`),
        (r.meta as Row | undefined)?.total,
        'recommendations',
      ),
  },
  {
    name: 'list_crisis_events',
    title: 'List crisis events',
    description: 'Your crisis events (social surges and official hazards), filtered as the HTTP route does.',
    route: { method: 'GET', url: '/api/intelligence/crisis-events' },
    annotations: READ,
    summarize: (r) =>
      listOf(rows(r.events).map(eventLine), (r.meta as Row | undefined)?.total, 'crisis events'),
  },
  {
    name: 'get_crisis_evidence',
    title: 'Crisis event evidence',
    description:
      'A crisis event with its evidence items (source, excerpt, link, time, content hash) and reviews; ' +
      '`evidence_version` is what a review must name.',
    route: { method: 'GET', url: '/api/intelligence/crisis-events/:id/evidence' },
    annotations: READ,
    summarize: (r) =>
      `${eventLine(r)}; ${rows(r.source_refs).length} evidence items, version ${r.evidence_version ?? '—'}. ` +
      `${r.summary ?? ''}`.trim(),
  },
  {
    name: 'review_crisis_event',
    title: 'Review a crisis event',
    description:
      'Records your assessment (unconfirmed, supported, disputed) with a rationale against the evidence version ' +
      'you read; a stale version is refused.',
    route: { method: 'POST', url: '/api/intelligence/crisis-events/:id/reviews' },
    annotations: ADDS,
    summarize: (r) => `Review recorded; the event now reads: ${eventLine(r)}.`,
  },
  {
    name: 'crisis_gate',
    title: 'May I post about this now?',
    description:
      'The social-response gate: whether an active crisis event of severity high or critical concerns the trend ' +
      'or topic (its trend, or one of its keywords in the title as whole words), and which one. The workflow push ' +
      'applies the same rule.',
    route: null,
    annotations: READ,
    summarize: (r) => String(r.reason),
  },
  {
    name: 'list_webhooks',
    title: 'List webhooks',
    description: 'Your webhook subscriptions (never their secrets).',
    route: { method: 'GET', url: '/api/integrations/webhooks' },
    annotations: READ,
    summarize: (r) =>
      listOf(
        rows(r.webhooks).map((w) => `#${w.id} ${w.url}`),
        undefined,
        'webhooks',
      ),
  },
  {
    name: 'get_usage',
    title: 'API usage',
    description: "Today's counted requests against the plan's daily quota, and the last 30 days.",
    route: { method: 'GET', url: '/api/user/api-usage' },
    annotations: READ,
    summarize: (r) => {
      const summary = (r.summary ?? {}) as Row;
      const fields = Object.entries(summary)
        .filter(([, v]) => typeof v === 'number' || typeof v === 'string' || v === null)
        .map(([k, v]) => `${k} ${v}`);
      return `Usage: ${fields.join(', ') || 'no figures'}.`;
    },
  },
];
