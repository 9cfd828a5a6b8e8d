import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createInsightAnalysis } from '../../../src/modules/insights/analysis-pool.ts';
import { type AnalyzerInput, analyzeOffline } from '../../../src/modules/insights/analyzer.ts';

const NOW = Date.parse('2026-11-25T10:00:00Z');

function input(n: number): AnalyzerInput {
  const texts = [
    'Acme Cloud outage again, support never answers and the price is a ripoff',
    'Loving the new Acme Cloud dashboard, setup took two minutes',
    'Is Acme Cloud down for anyone else? Status page says all green',
    'Acme Cloud refunded me the same day after the outage. Really grateful.',
  ];
  return {
    trend: { id: 7, title: 'Acme Cloud', key: 'acme cloud', category: 'Technology/Cloud Computing' },
    metrics: {
      volume: n,
      velocity_score: 61,
      velocity_1h: 12,
      lifecycle_stage: 'rising',
      growth: 40,
      platforms: { reddit: n - 5, x: 5 },
    },
    signals: Array.from({ length: n }, (_, i) => ({
      text: `${texts[i % texts.length]} (${i})`,
      title: i % 3 ? null : 'Acme Cloud',
      source: i % 2 ? 'reddit' : 'x',
      observed_at: NOW - i * 60_000,
      url: i % 4 ? null : `https://example.com/post/${i}`,
      location: null,
      lang: 'en',
    })),
    windowDays: 7,
    now: NOW,
  };
}

describe('insight analysis threads', () => {
  test('the worker thread writes the same insight as the calling thread', async () => {
    const threaded = createInsightAnalysis(true);
    try {
      const sample = input(60);
      assert.deepEqual(await threaded.analyze(sample), analyzeOffline(sample));
    } finally {
      await threaded.close();
    }
  });

  test('while the thread analyses, the event loop keeps running; in the calling thread it does not', async () => {
    const ticksDuring = async (threaded: boolean) => {
      const analysis = createInsightAnalysis(threaded);
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      try {
        await analysis.analyze(input(400));
        return ticks;
      } finally {
        clearInterval(timer);
        await analysis.close();
      }
    };
    assert.equal(await ticksDuring(false), 0);
    assert.ok((await ticksDuring(true)) > 0);
  });

  test('close waits for an analysis under way, which still answers', async () => {
    const threaded = createInsightAnalysis(true);
    const running = threaded.analyze(input(20));
    await threaded.close();
    assert.ok(typeof (await running).sentiment_summary === 'string');
  });
});
