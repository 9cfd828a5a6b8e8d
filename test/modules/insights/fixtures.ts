// Signals for insight tests: three trends with known tone, and helpers to run insight tasks to the end.
import type { TestContext } from '../../helpers/app.ts';
import { call } from '../../helpers/app.ts';

const COMPLAINTS = [
  'Acme Cloud is down again, total outage and support ignores every ticket. Terrible service.',
  'Third outage this week. Acme Cloud dashboard crashed and billing still charged us. Awful.',
  'Acme Cloud support is useless, waiting 3 days for a reply while everything is broken.',
  'Why is Acme Cloud so slow today? The API keeps failing with errors. Worst provider ever.',
  'Acme Cloud charged me twice and refuses a refund. Scam. Cancelling my subscription.',
];
const PRAISE = [
  'The Zenith Phone camera is amazing, best phone I have owned. Great price too!',
  'Zenith Phone review: fantastic battery, lovely screen, worth it at this price.',
  'Just bought the Zenith Phone on sale with a discount code, really happy with it.',
  'Zenith Phone vs the competition: the Zenith wins on value. Love it.',
  'Is the Zenith Phone worth buying? Yes, it is excellent and the deal is great.',
];
const PROFANE = [
  'Blorp Fest was fucking wild, the crowd lost their shit',
  'what the fuck happened at Blorp Fest, this is bullshit',
  'Blorp Fest lineup is shit, fucking waste of money',
  'Blorp Fest tickets sold out, damn fucking hell',
];

/** Request limits out of the way (tests poll task status); the monthly insight limits stay the defaults. */
export const RELAXED_PLANS = JSON.stringify({
  developer: { burst_per_second: 100_000, daily_quota: null },
  enterprise: { burst_per_second: 100_000 },
});

export const TRENDS = { negative: 'Acme Cloud', positive: 'Zenith Phone', profane: 'Blorp Fest' } as const;

/** 30 signals per trend over the last hours before `now`, each carrying the trend name as a keyword. */
function signalsAt(now: number) {
  const out: Record<string, unknown>[] = [];
  const sets: [string, string[]][] = [
    [TRENDS.negative, COMPLAINTS],
    [TRENDS.positive, PRAISE],
    [TRENDS.profane, PROFANE],
  ];
  const sources = ['x', 'reddit', 'x', 'news', 'bluesky'];
  for (const [name, texts] of sets) {
    for (let i = 0; i < 30; i++) {
      out.push({
        source: sources[i % sources.length],
        external_id: `${name}-${i}`,
        text: `${texts[i % texts.length]} (${i})`,
        keywords: [name],
        location: i % 2 === 0 ? 'US' : 'GB',
        lang: 'en',
        url:
          i % 5 === 1
            ? `https://www.reddit.com/r/${name.replace(' ', '').toLowerCase()}/comments/${i}`
            : undefined,
        observed_at: new Date(now - (i + 1) * 60_000 * 7).toISOString(),
      });
    }
  }
  return out;
}

export async function seed(ctx: TestContext, now: number): Promise<Record<keyof typeof TRENDS, number>> {
  const feeder = await call(ctx.app, 'POST', '/api/admin/users', {
    key: ctx.operatorKey,
    body: { email: `feeder-${Math.random().toString(36).slice(2)}@example.com`, plan: 'enterprise' },
  });
  const key = await call(ctx.app, 'POST', `/api/admin/users/${feeder.data.id}/api-keys`, {
    key: ctx.operatorKey,
    body: { name: 'feed', permissions: ['ingest'] },
  });
  const res = await call(ctx.app, 'POST', '/api/signals', {
    key: key.data.api_key,
    body: { signals: signalsAt(now) },
  });
  if (res.data.accepted !== 90) throw new Error(`ingest failed: ${res.body}`);
  await ctx.app.services.trendProcessor.drain();
  const ids = {} as Record<keyof typeof TRENDS, number>;
  for (const [slot, name] of Object.entries(TRENDS) as [keyof typeof TRENDS, string][]) {
    const row = await ctx.app.services.db
      .selectFrom('trends')
      .select('id')
      .where('key', '=', name.toLowerCase())
      .executeTakeFirstOrThrow();
    ids[slot] = Number(row.id);
  }
  return ids;
}

/** Runs the job worker until the task is finished; returns its status. */
export async function settle(
  ctx: TestContext,
  key: string,
  taskId: string,
): Promise<{ status: string; error: string | null }> {
  const worker = ctx.app.services.worker;
  worker.start();
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await call(ctx.app, 'GET', `/api/trends/ai-insights/status/${taskId}`, { key });
      if (res.data.status === 'succeeded' || res.data.status === 'failed') return res.data as never;
      if (Date.now() > deadline) throw new Error(`task ${taskId} did not finish: ${res.body}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    await worker.stop();
  }
}
