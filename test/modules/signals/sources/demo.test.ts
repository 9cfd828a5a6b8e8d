import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SignalInput } from '../../../../src/modules/signals/schemas.ts';
import {
  DEMO_MAX_BACKLOG_MS,
  DEMO_MAX_POLL_MS,
  DEMO_PLATFORMS,
  DEMO_TOPICS,
  demoSignals,
  demoSource,
  demoTopicRates,
} from '../../../../src/modules/signals/sources/demo.ts';
import type { SourceContext, SourceSignal } from '../../../../src/modules/signals/sources/types.ts';
import { compound, extractCandidates } from '../../../../src/modules/text/index.ts';
import { compileBodyValidator } from '../../../../src/platform/validation.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const MIDNIGHT = Date.parse('2026-11-20T00:00:00Z');

function context(now: number, cursor: string | null): SourceContext {
  return { now, cursor, signal: new AbortController().signal, fetch };
}

function mentions(signal: SourceSignal, name: string): boolean {
  return `${signal.title ?? ''} ${signal.text}`.toLowerCase().includes(name.toLowerCase());
}

describe('demo simulator', () => {
  test('is a pure function of seed and time', () => {
    const range = { from: MIDNIGHT + 10 * HOUR + 1234, to: MIDNIGHT + 10 * HOUR + 10 * MINUTE };
    const a = demoSignals({ seed: 42, ...range });
    const b = demoSignals({ seed: 42, ...range });
    assert.ok(a.length > 300, `${a.length} signals in 10 minutes`);
    assert.deepEqual(a, b);
    const other = demoSignals({ seed: 43, ...range });
    assert.notDeepEqual(
      a.map((s) => s.text),
      other.map((s) => s.text),
    );
    const ids = new Set(a.map((s) => s.external_id));
    assert.equal(ids.size, a.length, 'external ids are unique');
    for (let i = 0; i < a.length; i++) {
      const s = a[i]!;
      assert.match(s.external_id, /^demo-\d+-\d+$/);
      assert.ok(s.observed_at >= range.from && s.observed_at < range.to);
      if (i > 0) assert.ok(s.observed_at >= a[i - 1]!.observed_at, 'ordered by time');
    }
    assert.deepEqual(demoSignals({ seed: 42, from: range.to, to: range.from }), []);
  });

  test('a range split anywhere yields exactly the union of its pieces', () => {
    const from = MIDNIGHT + 14 * HOUR + 3_333;
    const to = from + 7 * MINUTE + 777;
    const whole = demoSignals({ seed: 7, from, to });
    const cuts = [from, from + 1, from + 4_999, from + 10_000, from + 61_234, from + 3 * MINUTE, to - 1, to];
    const pieces = cuts.slice(1).flatMap((end, i) => demoSignals({ seed: 7, from: cuts[i]!, to: end }));
    assert.deepEqual(pieces, whole);
  });

  test('every topic mentions its name in each subject and fact', () => {
    assert.ok(DEMO_TOPICS.length >= 25 && DEMO_TOPICS.length <= 40);
    for (const topic of DEMO_TOPICS) {
      for (const text of [...topic.subjects, ...topic.facts]) {
        assert.ok(text.toLowerCase().includes(topic.name.toLowerCase()), `${topic.id}: ${text}`);
      }
    }
  });

  test('signals are valid POST /api/signals items once observed_at is ISO 8601', () => {
    const validate = compileBodyValidator(SignalInput);
    const signals = demoSignals({ seed: 42, from: MIDNIGHT + 12 * HOUR, to: MIDNIGHT + 13 * HOUR });
    const platforms = new Set<string>();
    let withKeywords = 0;
    let withHashtags = 0;
    for (const signal of signals) {
      const item = { ...signal, observed_at: new Date(signal.observed_at).toISOString() };
      assert.ok(validate(item), `${JSON.stringify(item)}: ${JSON.stringify(validate.errors)}`);
      platforms.add(signal.source);
      if (signal.keywords) withKeywords++;
      if (/#\w/.test(signal.text)) withHashtags++;
      if (signal.url !== undefined) assert.match(signal.url!, /^https:\/\/example\.com\/demo\/demo-\d+-\d+$/);
      if (signal.author !== undefined) assert.match(signal.author!, /^demo_(user|newsdesk)_\d+$/);
    }
    assert.deepEqual([...platforms].sort(), [...DEMO_PLATFORMS].sort());
    assert.ok(
      withKeywords > signals.length * 0.2 && withKeywords < signals.length * 0.7,
      'keywords sometimes',
    );
    assert.ok(withHashtags > signals.length * 0.25, 'hashtags often');
  });

  test('daily rhythm: a night hour is quieter than an afternoon hour', () => {
    for (const seed of [42, 7]) {
      for (const day of [MIDNIGHT, MIDNIGHT + DAY]) {
        const night = demoSignals({ seed, from: day + 3 * HOUR, to: day + 4 * HOUR }).length;
        const afternoon = demoSignals({ seed, from: day + 15 * HOUR, to: day + 16 * HOUR }).length;
        assert.ok(night < afternoon * 0.75, `seed ${seed}: night ${night} vs afternoon ${afternoon}`);
      }
    }
  });

  test('volume averages 1–3 signals per second', () => {
    const count = demoSignals({ seed: 42, from: MIDNIGHT, to: MIDNIGHT + DAY }).length;
    const perSecond = count / (DAY / 1000);
    assert.ok(perSecond >= 1 && perSecond <= 3, `${perSecond.toFixed(2)}/s`);
  });

  test('topics burst: a pulse lifts a topic well above its base, and a few surge at any moment', () => {
    let strongest = { ratio: 0, topic: -1, at: 0 };
    let momentsWithSurge = 0;
    let moments = 0;
    for (let at = MIDNIGHT; at < MIDNIGHT + DAY; at += 10 * MINUTE) {
      const { base, total } = demoTopicRates(42, at);
      let surging = 0;
      for (let i = 0; i < base.length; i++) {
        const ratio = total[i]! / base[i]!;
        if (ratio >= 2) surging++;
        if (ratio > strongest.ratio) strongest = { ratio, topic: i, at };
      }
      moments++;
      if (surging > 0) momentsWithSurge++;
    }
    assert.ok(strongest.ratio >= 4, `strongest burst ×${strongest.ratio.toFixed(1)}`);
    assert.ok(momentsWithSurge >= moments * 0.9, `${momentsWithSurge}/${moments} moments with a surge`);
    // The burst shows in the signals: around its peak the topic is mentioned far more than its base rate.
    const topic = DEMO_TOPICS[strongest.topic]!;
    const around = demoSignals({
      seed: 42,
      from: strongest.at - 30 * MINUTE,
      to: strongest.at + 30 * MINUTE,
    });
    const count = around.filter((s) => mentions(s, topic.name)).length;
    const baseCount = demoTopicRates(42, strongest.at).base[strongest.topic]!;
    assert.ok(count >= 2.5 * baseCount, `${topic.name}: ${count} mentions vs base ${baseCount.toFixed(0)}/h`);
  });

  test('sentiment is mixed: positive, negative and neutral texts by VADER', () => {
    const signals = demoSignals({ seed: 42, from: MIDNIGHT + 9 * HOUR, to: MIDNIGHT + 9.5 * HOUR });
    let positive = 0;
    let negative = 0;
    let neutral = 0;
    for (const s of signals) {
      const score = compound(s.title ? `${s.title}. ${s.text}` : s.text);
      if (score >= 0.05) positive++;
      else if (score <= -0.05) negative++;
      else neutral++;
    }
    const n = signals.length;
    assert.ok(positive > n * 0.25, `positive ${positive}/${n}`);
    assert.ok(negative > n * 0.15, `negative ${negative}/${n}`);
    assert.ok(neutral > n * 0.15, `neutral ${neutral}/${n}`);
  });

  test('30 seconds of the stream already hold at least 10 trends (keys mentioned twice or more)', () => {
    for (const seed of [42, 7]) {
      for (let hour = 0; hour < 24; hour += 3) {
        const from = MIDNIGHT + hour * HOUR + 17 * MINUTE;
        const counts = new Map<string, number>();
        for (const s of demoSignals({ seed, from, to: from + 30_000 })) {
          for (const c of extractCandidates({
            text: s.text,
            title: s.title,
            keywords: s.keywords,
            lang: s.lang,
          })) {
            counts.set(c.key, (counts.get(c.key) ?? 0) + 1);
          }
        }
        const trends = [...counts.values()].filter((n) => n >= 2).length;
        assert.ok(trends >= 10, `seed ${seed} at ${hour}:17 UTC: ${trends} keys with ≥ 2 mentions`);
      }
    }
  });
});

describe('demo source', () => {
  test('describes itself as synthetic', () => {
    const source = demoSource({ seed: 42, speed: 1, startedAt: MIDNIGHT });
    assert.equal(source.id, 'demo');
    assert.equal(source.kind, 'poll');
    assert.equal(source.name, 'Demo simulator');
    assert.equal(source.attribution, 'Crestwatch demo simulator (synthetic data)');
    // Synthetic data made here: no licence applies, said with an empty string rather than null.
    assert.equal(source.licence_url, '');
    assert.match(source.coverage, /synthetic/i);
    assert.match(source.coverage, /no licence applies/);
    assert.equal(source.intervalMs, 2000);
    assert.equal(demoSource({ seed: 1, speed: 1, startedAt: 0, intervalMs: 500 }).intervalMs, 500);
  });

  test('at speed 1 the first poll yields the last 5 minutes and later polls continue without gaps', async () => {
    const start = MIDNIGHT + 15 * HOUR;
    const source = demoSource({ seed: 42, speed: 1, startedAt: start });
    const first = await source.poll(context(start, null));
    assert.ok(first.signals.length > 100, `${first.signals.length} signals on the first poll`);
    assert.deepEqual(
      first.signals.map((s) => s.external_id),
      demoSignals({ seed: 42, from: start - 5 * MINUTE, to: start }).map((s) => s.external_id),
    );
    for (const s of first.signals) assert.ok(s.observed_at >= start - 5 * MINUTE && s.observed_at <= start);
    const second = await source.poll(context(start + 2000, first.cursor));
    assert.deepEqual(second.signals, demoSignals({ seed: 42, from: start, to: start + 2000 }));
    // Same instant again: nothing new.
    const again = await source.poll(context(start + 2000, second.cursor));
    assert.deepEqual(again.signals, []);
  });

  test('at speed 60 simulated time runs ahead but observed_at never passes now', async () => {
    const start = MIDNIGHT + 8 * HOUR;
    const source = demoSource({ seed: 42, speed: 60, startedAt: start });
    const seen = new Set<string>();
    let cursor: string | null = null;
    let emitted = 0;
    let lastSim = 0;
    for (let now = start; now <= start + 60_000; now += 2000) {
      const result = await source.poll(context(now, cursor));
      for (const s of result.signals) {
        assert.ok(s.observed_at <= now, `observed_at ${s.observed_at} > now ${now}`);
        assert.ok(!seen.has(s.external_id), 'no signal twice');
        seen.add(s.external_id);
      }
      emitted += result.signals.length;
      assert.ok(result.cursor !== null && result.cursor.length < 4096);
      const sim = (JSON.parse(result.cursor!) as { sim: number }).sim;
      assert.ok(sim > lastSim, 'the cursor advances');
      lastSim = sim;
      cursor = result.cursor;
    }
    // 60 real seconds at speed 60 = 60 simulated minutes after the 5-minute look-back, all emitted.
    assert.equal(lastSim, start + HOUR);
    assert.equal(emitted, demoSignals({ seed: 42, from: start - 5 * MINUTE, to: start + HOUR }).length);
  });

  test('one poll covers at most 10 simulated minutes; the cursor catches up over later polls', async () => {
    const start = MIDNIGHT + 20 * HOUR;
    const source = demoSource({ seed: 9, speed: 60, startedAt: start });
    const first = await source.poll(context(start, null));
    // 40 real seconds later the simulation is 40 simulated minutes ahead.
    const late = start + 40_000;
    const second = await source.poll(context(late, first.cursor));
    const sim2 = (JSON.parse(second.cursor!) as { sim: number }).sim;
    assert.equal(sim2, start + DEMO_MAX_POLL_MS);
    for (const s of second.signals) assert.ok(s.observed_at <= late);
    const third = await source.poll(context(late, second.cursor));
    assert.equal((JSON.parse(third.cursor!) as { sim: number }).sim, start + 2 * DEMO_MAX_POLL_MS);
    assert.ok(third.signals.length > 0);
  });

  test('a restart continues the simulated clock from the cursor; a long stop skips ahead', async () => {
    const start = MIDNIGHT + 2 * HOUR;
    const before = demoSource({ seed: 42, speed: 60, startedAt: start });
    let cursor: string | null = null;
    for (let now = start; now <= start + 30_000; now += 2000)
      cursor = (await before.poll(context(now, cursor))).cursor;
    const simBefore = (JSON.parse(cursor!) as { sim: number }).sim;
    assert.equal(simBefore, start + 30 * MINUTE);
    // Restarted 10 s later with a new startedAt: simulated time is 10 s × 60 further on, not back at start.
    const restartedAt = start + 40_000;
    const after = demoSource({ seed: 42, speed: 60, startedAt: restartedAt });
    const resumed = await after.poll(context(restartedAt, cursor));
    assert.deepEqual(
      resumed.signals.map((s) => s.external_id),
      demoSignals({ seed: 42, from: simBefore, to: simBefore + DEMO_MAX_POLL_MS }).map((s) => s.external_id),
    );
    for (const s of resumed.signals) assert.ok(s.observed_at <= restartedAt);
    // Stopped for a day at speed 1: at most one simulated hour is replayed.
    const slow = demoSource({ seed: 42, speed: 1, startedAt: start });
    const one = await slow.poll(context(start, null));
    const dayLater = start + DAY;
    const resumedLater = await slow.poll(context(dayLater, one.cursor));
    assert.ok(resumedLater.signals.length > 0);
    for (const s of resumedLater.signals) {
      assert.ok(s.observed_at >= dayLater - DEMO_MAX_BACKLOG_MS && s.observed_at <= dayLater);
    }
    // An unreadable cursor starts afresh.
    const fresh = await slow.poll(context(start, 'not json'));
    assert.ok(fresh.signals.length > 0);
  });
});
