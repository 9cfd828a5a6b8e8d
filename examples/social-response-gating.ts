// Social response gating — the specification's recommended flow as a small client you can copy:
//   1. read trends               GET  /api/trends
//   2. read AI insights          GET  /api/trends/{id}/ai-insights   (JSON null when none was generated)
//   3. read active crisis events GET  /api/intelligence/crisis-events?status=active
//   4. forward to the workflow   POST /api/integrations/workflow/push — only when no blocking crisis exists
//
// A crisis event blocks a trend when it is active, of severity high or critical, and either names the trend
// (`trend_id`) or has a source keyword appearing as whole words in the trend's title. The push also carries
// `gate: {trend_id}`, so Crestwatch re-checks at the moment of sending (409 `blocked_by_crisis`): a crisis
// opened between steps 3 and 4 still holds the push back.
//
// Needs Node ≥ 18 (global fetch) and nothing else. Connect the workflow tool and select a workflow first
// (POST /api/integrations/workflow/connect, PUT /api/integrations/workflow/selection). Run:
//   CRESTWATCH_API_KEY=cw_... CRESTWATCH_BASE_URL=http://localhost:3000 npx tsx examples/social-response-gating.ts \
//     [--search ai] [--limit 5] [--dry-run]

export interface GatingOptions {
  /** e.g. `http://localhost:3000` */
  baseUrl: string;
  apiKey: string;
  /** Only trends matching this text (the `search` filter of GET /api/trends). */
  search?: string;
  /** How many of the fastest trends to consider (default 5). */
  limit?: number;
  /** The `event` name sent to the workflow (default `trend_lifecycle`). */
  event?: string;
  /** Decide but do not push. */
  dryRun?: boolean;
  fetch?: typeof fetch;
}

export interface Trend {
  id: number;
  title: string;
  category: string;
  volume: number;
  velocity_score: number;
  lifecycle_stage: string;
  sentiment_category: string;
}

export interface CrisisEvent {
  id: number;
  title: string;
  severity: string;
  status: string;
  trend_id: number | null;
  source_keywords: string[];
}

export interface Decision {
  trend: Trend;
  /** The latest AI insight you generated for the trend, or null. */
  insight: Record<string, unknown> | null;
  /** Crisis events holding the trend back (empty when forwarded). */
  blocking: { id: number; title: string; severity: string }[];
  forwarded: boolean;
  /** The push result when forwarded: `{delivered, status_code, execution_id}`. */
  push?: { delivered: boolean; status_code: number | null; execution_id: string };
  reason: string;
}

export class CrestwatchError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CrestwatchError';
  }
}

const SEVERE = new Set(['high', 'critical']);

/** Lowercase, accents and punctuation removed: whole-word matching as Crestwatch does it. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function blocks(event: CrisisEvent, trend: { id: number; title: string }): boolean {
  if (event.status !== 'active' || !SEVERE.has(event.severity)) return false;
  if (event.trend_id === trend.id) return true;
  const title = ` ${fold(trend.title)} `;
  return event.source_keywords.some((k) => fold(k) !== '' && title.includes(` ${fold(k)} `));
}

function client(options: GatingOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  return async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    for (let attempt = 1; ; attempt++) {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // 429 (and 503 on reads): back off as Retry-After says (a few seconds at most here), then try again.
      const retry = response.status === 429 || (response.status === 503 && method === 'GET');
      if (!retry || attempt >= 3) break;
      const wait = Math.min(Number(response.headers.get('retry-after') ?? 1) || 1, 5);
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
    const text = await response.text();
    const json = text ? JSON.parse(text) : null;
    if (!response.ok) {
      // Problem details: {status, code, detail}.
      throw new CrestwatchError(response.status, json?.code ?? 'error', json?.detail ?? response.statusText);
    }
    return json as T;
  };
}

/** Active crisis events, every page. */
async function activeCrises(api: ReturnType<typeof client>): Promise<CrisisEvent[]> {
  const events: CrisisEvent[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await api<{ events: CrisisEvent[]; meta: { total: number } }>(
      'GET',
      `/api/intelligence/crisis-events?status=active&limit=100&offset=${offset}`,
    );
    events.push(...page.events);
    if (page.events.length < 100 || events.length >= page.meta.total) return events;
  }
}

/** The insight, or null: none generated yet, or a 404 (a stale reference: carry on without it). */
async function latestInsight(api: ReturnType<typeof client>, trendId: number) {
  try {
    return await api<Record<string, unknown> | null>('GET', `/api/trends/${trendId}/ai-insights`);
  } catch (error) {
    if (error instanceof CrestwatchError && error.status === 404) return null;
    throw error;
  }
}

export async function runSocialResponseGating(options: GatingOptions): Promise<Decision[]> {
  const api = client(options);
  // 1. Trends, fastest first.
  const query = new URLSearchParams({ sort_by: 'velocity', limit: String(options.limit ?? 5) });
  if (options.search) query.set('search', options.search);
  const { trends } = await api<{ trends: Trend[] }>('GET', `/api/trends?${query}`);
  // 3. Active crisis events (read once for all trends).
  const crises = await activeCrises(api);
  const decisions: Decision[] = [];
  for (const trend of trends) {
    // 2. The AI insight (JSON null until one is generated).
    const insight = await latestInsight(api, trend.id);
    const blocking = crises
      .filter((event) => blocks(event, trend))
      .map(({ id, title, severity }) => ({ id, title, severity }));
    if (blocking.length > 0) {
      decisions.push({
        trend,
        insight,
        blocking,
        forwarded: false,
        reason: `held back by crisis event ${blocking[0]!.id} (${blocking[0]!.severity})`,
      });
      continue;
    }
    if (options.dryRun) {
      decisions.push({ trend, insight, blocking, forwarded: false, reason: 'dry run: would forward' });
      continue;
    }
    // 4. Forward, gated once more by Crestwatch at the moment of sending.
    try {
      const push = await api<{ delivered: boolean; status_code: number | null; execution_id: string }>(
        'POST',
        '/api/integrations/workflow/push',
        {
          event: options.event ?? 'trend_lifecycle',
          data: {
            trend_id: trend.id,
            trend_name: trend.title,
            category: trend.category,
            lifecycle_stage: trend.lifecycle_stage,
            velocity: trend.velocity_score,
            volume: trend.volume,
            sentiment_category: trend.sentiment_category,
            insight: insight
              ? {
                  sentiment_summary: insight.sentiment_summary ?? null,
                  key_themes: insight.key_themes ?? [],
                  brand_safety: insight.brand_safety ?? null,
                }
              : null,
          },
          gate: { trend_id: trend.id },
        },
      );
      decisions.push({
        trend,
        insight,
        blocking,
        forwarded: push.delivered,
        push,
        reason: push.delivered ? 'forwarded' : `workflow answered HTTP ${push.status_code}`,
      });
    } catch (error) {
      if (error instanceof CrestwatchError && error.code === 'blocked_by_crisis') {
        decisions.push({ trend, insight, blocking, forwarded: false, reason: `held back: ${error.message}` });
        continue;
      }
      throw error;
    }
  }
  return decisions;
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const apiKey = argument('api-key') ?? process.env.CRESTWATCH_API_KEY;
  if (!apiKey) {
    console.error('Set CRESTWATCH_API_KEY (or pass --api-key).');
    process.exit(2);
  }
  const decisions = await runSocialResponseGating({
    baseUrl: argument('base-url') ?? process.env.CRESTWATCH_BASE_URL ?? 'http://localhost:3000',
    apiKey,
    search: argument('search'),
    limit: argument('limit') ? Number(argument('limit')) : undefined,
    dryRun: process.argv.includes('--dry-run'),
  });
  for (const d of decisions) {
    console.log(`${d.forwarded ? 'FORWARDED' : 'HELD     '}  #${d.trend.id} ${d.trend.title}: ${d.reason}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
