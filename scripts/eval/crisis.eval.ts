// Replays the scripted scenarios of crisis-scenarios.ts through the real app (a throw-away SQLite database,
// a manual clock moved one minute at a time, the trend engine and crisis detector run after each minute) and
// prints detection precision, recall and the median minutes from the first negative signal of the surge to
// the event. Goal: precision and recall ≥ 0.9, median ≤ 10 minutes of signal time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { compound } from '../../src/modules/text/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { scenarios } from './crisis-scenarios.ts';
import { insertEvalUser } from './eval-user.ts';

const MIN = 60_000;
const REPLAY_MINUTES = 60;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-crisis-eval-'));
const clock = new ManualClock(Date.parse('2026-11-01T00:00:00Z'));
const config = loadConfig({
  DATABASE_URL: `sqlite:${path.join(dir, 'eval.db')}`,
  DATA_DIR: dir,
  SECRET_KEY: 'eval-secret-key-0123456789abcdef0123456789',
  LOG_LEVEL: 'silent',
  SOURCES: 'none',
  NLP_WORKER_THREADS: '0',
  OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
});
const app = await buildApp(config, { clock, logger: false, background: false });
const { db, signals, engine } = app.services;

let tp = 0;
let fp = 0;
let fn = 0;
const delays: number[] = [];
console.log('scenario                                      expected  detected  minutes');
try {
  const all = scenarios();
  for (const [index, scenario] of all.entries()) {
    const now = Date.parse('2026-11-01T00:00:00Z') + (index + 1) * 3 * 86_400_000;
    clock.set(now);
    const user = await insertEvalUser(app, `eval-${index}@example.com`, now);
    await app.services.interests.create(user.id, { keyword: scenario.topic });
    const items = (from: number, to: number) =>
      scenario.signals
        .map((s, i) => ({ s, i }))
        .filter(({ s }) => s.minute >= from && s.minute < to)
        .map(({ s, i }) => ({
          source: s.source,
          external_id: `eval-${index}-${i}`,
          text: s.text,
          author: s.author,
          ...(s.url ? { url: s.url } : {}),
          observed_at: new Date(now + s.minute * MIN + (i % 50) * 1000).toISOString(),
        }));
    // The baseline day at once (its signals are in the past), then the surge minute by minute.
    clock.set(now);
    await signals.ingest(items(-100_000, 0));
    await engine.tick();
    const firstNegative = scenario.signals
      .filter((s) => s.minute >= 0 && compound(s.text) <= -0.05)
      .reduce((m, s) => Math.min(m, s.minute), Number.POSITIVE_INFINITY);
    let detectedAt: number | null = null;
    for (let minute = 0; minute < REPLAY_MINUTES && detectedAt === null; minute++) {
      clock.set(now + (minute + 1) * MIN);
      await signals.ingest(items(minute, minute + 1));
      await engine.tick();
      const event = await db
        .selectFrom('crisis_events')
        .select('detected_at')
        .where('user_id', '=', user.id)
        .where('kind', '=', 'social')
        .executeTakeFirst();
      if (event) detectedAt = Number(event.detected_at);
    }
    const detected = detectedAt !== null;
    let minutes = '';
    if (detected && scenario.expectEvent) {
      tp++;
      const delay = (detectedAt! - (now + firstNegative * MIN)) / MIN;
      delays.push(delay);
      minutes = delay.toFixed(0);
    } else if (detected) fp++;
    else if (scenario.expectEvent) fn++;
    console.log(
      `${scenario.name.padEnd(46)}${String(scenario.expectEvent).padEnd(10)}${String(detected).padEnd(10)}${minutes}`,
    );
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const sorted = [...delays].sort((a, b) => a - b);
  const median =
    sorted.length === 0
      ? Number.NaN
      : sorted.length % 2
        ? sorted[(sorted.length - 1) / 2]
        : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  console.log(
    `\nscenarios ${all.length}: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}, ` +
      `median minutes to event ${median.toFixed(1)} (goal: ≥ 0.9, ≥ 0.9, ≤ 10)`,
  );
  console.log(precision >= 0.9 && recall >= 0.9 && median <= 10 ? 'Goal met.' : 'Goal NOT met.');
} finally {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
