// `crestwatch seed --demo`: the demo simulator's signals for the last hours, processed into trends.
import { demoSignals, type SourceSignal } from '../../modules/signals/index.ts';
import { systemClock } from '../../platform/clock.ts';
import { type CommandInput, integerOption, UsageError } from '../command.ts';
import { Progress } from '../progress.ts';
import { processPending, SHOWN_REJECTIONS, type SignalTools, withSignals } from '../signals.ts';

export const usage = [
  "  seed --demo [--hours 72] [--seed N]       store the demo simulator's signals for the last 1–720 hours",
  '                                            and process them into trends (safe to re-run)',
].join('\n');

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const SEED_CHUNK_MS = 10 * MINUTE_MS;
const SEED_INGEST_BATCH = 1000;

interface SeedSummary {
  generated: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  /** The first rejection reasons (none expected: the simulator only makes valid signals). */
  reasons: string[];
}

export async function run({ config, values, positionals }: CommandInput): Promise<void> {
  if (!values.demo) throw new UsageError('seed needs --demo (the demo simulator is the only generator)');
  if (positionals.length > 1) throw new UsageError(`unexpected argument: ${positionals[1]}`);
  const hours = integerOption(values.hours, '--hours', 1, 720, 72);
  const seed = integerOption(values.seed, '--seed', 0, 2_147_483_647, config.demo.seed);
  const started = Date.now();
  await withSignals(config, async (tools) => {
    const to = systemClock.now();
    const seeded = await seedDemo(tools, seed, to - hours * HOUR_MS, to);
    const processed = await processPending(tools);
    const trends = await tools.trends.count();
    console.log(
      `Seeded ${hours} h of demo signals (seed ${seed}): generated ${seeded.generated}, ` +
        `accepted ${seeded.accepted}, duplicates ${seeded.duplicates}, rejected ${seeded.rejected}`,
    );
    for (const detail of seeded.reasons) console.log(`  rejected: ${detail}`);
    console.log(
      `Processed ${processed.signals} signals (${processed.mentions} mentions); ${trends} trends stored. ` +
        `Took ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  });
}

/** A simulated signal as an item of POST /api/signals: absent fields left out, observed_at as ISO 8601. */
function toSignalItem(signal: SourceSignal): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(signal)) {
    if (value !== null && value !== undefined) item[field] = value;
  }
  item.observed_at = new Date(signal.observed_at).toISOString();
  return item;
}

/** Generates the demo simulator's signals for [from, to) chunk by chunk and stores them. */
async function seedDemo(tools: SignalTools, seed: number, from: number, to: number): Promise<SeedSummary> {
  const progress = new Progress({ label: 'generate', total: to - from, unit: 'signals' });
  const summary: SeedSummary = { generated: 0, accepted: 0, duplicates: 0, rejected: 0, reasons: [] };
  for (let start = from; start < to; start += SEED_CHUNK_MS) {
    const items = demoSignals({ seed, from: start, to: Math.min(to, start + SEED_CHUNK_MS) }).map(
      toSignalItem,
    );
    for (let i = 0; i < items.length; i += SEED_INGEST_BATCH) {
      const result = await tools.signals.ingest(items.slice(i, i + SEED_INGEST_BATCH));
      summary.accepted += result.accepted;
      summary.duplicates += result.duplicates;
      summary.rejected += result.rejected.length;
      for (const r of result.rejected)
        if (summary.reasons.length < SHOWN_REJECTIONS) summary.reasons.push(r.detail);
    }
    summary.generated += items.length;
    progress.update(Math.min(to, start + SEED_CHUNK_MS) - from, summary.generated);
  }
  progress.finish(`${summary.accepted.toLocaleString('en-US')} new`);
  return summary;
}
