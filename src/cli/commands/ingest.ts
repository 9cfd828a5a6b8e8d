// `crestwatch ingest FILE.jsonl`: stores signals from a JSON Lines file (one POST /api/signals item per line),
// and with --process turns them into trends.
import fs from 'node:fs';
import readline from 'node:readline';
import { type CommandInput, integerOption, UsageError } from '../command.ts';
import { Progress } from '../progress.ts';
import { processPending, SHOWN_REJECTIONS, type SignalTools, withSignals } from '../signals.ts';

export const usage = [
  '  ingest FILE.jsonl [--batch 1000] [--process]',
  '                                            store signals from a JSON Lines file (one POST /api/signals',
  '                                            item per line); --process also turns them into trends',
].join('\n');

interface RejectedLine {
  line: number;
  reason: string;
}

interface IngestSummary {
  lines: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  /** The first rejections by line number. */
  shown: RejectedLine[];
}

export async function run({ config, values, positionals }: CommandInput): Promise<void> {
  const file = positionals[1];
  if (!file || positionals.length > 2) throw new UsageError('ingest needs one FILE.jsonl');
  const batchSize = integerOption(values.batch, '--batch', 1, 10_000, 1000);
  await withSignals(config, async (tools) => {
    const summary = await ingestFile(tools, file, batchSize);
    console.log(
      `accepted ${summary.accepted}, duplicates ${summary.duplicates}, rejected ${summary.rejected}`,
    );
    if (summary.rejected > 0) {
      const more = summary.rejected > summary.shown.length ? ` (first ${summary.shown.length})` : '';
      console.log(`Rejected lines${more}:`);
      for (const r of summary.shown) console.log(`  line ${r.line}: ${r.reason}`);
    }
    if (values.process) {
      const processed = await processPending(tools);
      console.log(
        `processed ${processed.signals} signals, ${processed.mentions} mentions; ` +
          `${await tools.trends.count()} trends stored`,
      );
    }
  });
}

/** `signals[3].text is required` (an item of a batch) → `text is required`. */
function itemReason(detail: string, index: number): string {
  return detail.replaceAll(`signals[${index}].`, '').replaceAll(`signals[${index}]`, 'item');
}

/** Streams a JSON Lines file into SignalsService in batches; never holds more than a batch in memory. */
async function ingestFile(tools: SignalTools, file: string, batchSize: number): Promise<IngestSummary> {
  const size = (await fs.promises.stat(file)).size;
  const input = fs.createReadStream(file);
  const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let inputError: Error | undefined;
  input.on('error', (error) => {
    inputError = error;
    lines.close();
  });
  const progress = new Progress({ label: 'ingest', total: size, unit: 'lines' });
  const summary: IngestSummary = { lines: 0, accepted: 0, duplicates: 0, rejected: 0, shown: [] };
  let batch: unknown[] = [];
  let batchLines: number[] = [];
  // Rejections not yet reported, kept in line order together with their batch.
  let pending: RejectedLine[] = [];
  let bytes = 0;

  const flush = async () => {
    if (batch.length > 0) {
      const result = await tools.signals.ingest(batch);
      summary.accepted += result.accepted;
      summary.duplicates += result.duplicates;
      summary.rejected += result.rejected.length;
      for (const r of result.rejected) {
        pending.push({ line: batchLines[r.index]!, reason: itemReason(r.detail, r.index) });
      }
    }
    pending.sort((a, b) => a.line - b.line);
    for (const r of pending) if (summary.shown.length < SHOWN_REJECTIONS) summary.shown.push(r);
    pending = [];
    batch = [];
    batchLines = [];
  };

  for await (const line of lines) {
    summary.lines++;
    bytes += Buffer.byteLength(line) + 1;
    if (line.trim() !== '') {
      let item: unknown;
      let parsed = true;
      try {
        item = JSON.parse(line);
      } catch (error) {
        parsed = false;
        summary.rejected++;
        pending.push({ line: summary.lines, reason: `not valid JSON (${(error as Error).message})` });
      }
      if (parsed) {
        batch.push(item);
        batchLines.push(summary.lines);
        if (batch.length >= batchSize) await flush();
      }
    }
    progress.update(Math.min(bytes, size), summary.lines);
  }
  if (inputError) throw inputError;
  await flush();
  progress.finish();
  return summary;
}
