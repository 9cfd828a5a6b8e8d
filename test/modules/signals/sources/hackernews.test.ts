import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { hackerNewsSource } from '../../../../src/modules/signals/sources/hackernews.ts';
import { SourceError } from '../../../../src/modules/signals/sources/types.ts';
import { assertContract, pollContext, type StandIn, send, standIn } from './stand-in.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');
const T = NOW / 1000 - 600; // ten minutes ago, in unix seconds

// Items as the Firebase API serves them.
const ITEMS: Record<number, unknown> = {
  41000105: {
    by: 'pg_fan',
    descendants: 12,
    id: 41000105,
    kids: [41000110, 41000111],
    score: 57,
    time: T,
    title: 'Show HN: A tiny database in 500 lines of Rust',
    type: 'story',
    url: 'https://github.com/example/tinydb',
  },
  41000104: {
    by: 'throwaway42',
    descendants: 3,
    id: 41000104,
    score: 8,
    text: 'We&#x27;re evaluating <i>vector</i> stores.<p>What do you use &amp; why? See <a href="https:&#x2F;&#x2F;example.com">this</a>',
    time: T - 60,
    title: 'Ask HN: Which vector store in production?',
    type: 'story',
  },
  41000103: { by: 'spammer', dead: true, id: 41000103, time: T - 120, title: 'Buy now', type: 'story' },
  41000102: { deleted: true, id: 41000102, time: T - 180, type: 'story' },
  41000101: {
    by: 'acme',
    id: 41000101,
    score: 1,
    time: T - 240,
    title: 'Acme (YC W25) is hiring',
    type: 'job',
    url: 'https://acme.example/jobs',
  },
  41000100: null,
  41000099: {
    by: 'oldtimer',
    id: 41000099,
    parent: 41000001,
    text: 'Agreed, <code>fsync</code> matters.',
    time: T - 300,
    type: 'comment',
  },
  41000098: {
    by: 'x',
    id: 41000098,
    score: 2,
    time: T + 3600,
    title: 'Clock skew',
    type: 'story',
    url: 'ftp://files.example',
  },
};

describe('hackernews source', () => {
  let server: StandIn;
  let newStories: number[] = [];
  let itemDelayMs = 0;
  let failItems = false;
  let inFlight = 0;
  let maxInFlight = 0;
  before(async () => {
    server = await standIn(async (req, res) => {
      if (req.url === '/v0/newstories.json') return send(res, 200, JSON.stringify(newStories));
      const match = /^\/v0\/item\/(\d+)\.json$/.exec(req.url ?? '');
      if (!match) return send(res, 404, '{"error":"Permission denied"}');
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await sleep(itemDelayMs);
      inFlight--;
      if (failItems) return send(res, 503, 'down');
      const id = Number(match[1]);
      const item = id in ITEMS ? ITEMS[id] : { id, type: 'story', title: `Story ${id}`, time: T, score: 1 };
      send(res, 200, JSON.stringify(item));
    });
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    itemDelayMs = 0;
    failItems = false;
    maxInFlight = 0;
  });

  const itemsRequested = () =>
    server.requests.flatMap((r) =>
      /item\/(\d+)/.exec(r.url) ? [Number(/item\/(\d+)/.exec(r.url)![1])] : [],
    );

  test('maps stories and comments; skips dead, deleted, null and job items', async () => {
    newStories = Object.keys(ITEMS)
      .map(Number)
      .sort((a, b) => b - a);
    const source = hackerNewsSource({ baseUrl: `${server.url}/v0/`, intervalMs: 60_000 });
    assert.equal(source.id, 'hackernews');
    assert.equal(source.attribution, 'Hacker News (Y Combinator)');
    assert.equal(source.licence_url, 'https://www.ycombinator.com/legal/');

    const { signals, cursor } = await source.poll(pollContext(null, NOW));
    assertContract(signals, NOW);
    assert.equal(cursor, '41000105');
    assert.deepEqual(signals, [
      {
        source: 'hackernews',
        external_id: '41000098',
        text: 'Clock skew',
        title: 'Clock skew',
        url: 'https://news.ycombinator.com/item?id=41000098',
        author: 'x',
        observed_at: NOW,
        keywords: null,
        engagement: { likes: 2 },
      },
      {
        source: 'hackernews',
        external_id: '41000099',
        text: 'Agreed, fsync matters.',
        title: null,
        url: 'https://news.ycombinator.com/item?id=41000099',
        author: 'oldtimer',
        observed_at: (T - 300) * 1000,
        keywords: null,
        engagement: null,
      },
      {
        source: 'hackernews',
        external_id: '41000104',
        text: "Ask HN: Which vector store in production?\n\nWe're evaluating vector stores. What do you use & why? See this",
        title: 'Ask HN: Which vector store in production?',
        url: 'https://news.ycombinator.com/item?id=41000104',
        author: 'throwaway42',
        observed_at: (T - 60) * 1000,
        keywords: null,
        engagement: { likes: 8, comments: 3 },
      },
      {
        source: 'hackernews',
        external_id: '41000105',
        text: 'Show HN: A tiny database in 500 lines of Rust',
        title: 'Show HN: A tiny database in 500 lines of Rust',
        url: 'https://github.com/example/tinydb',
        author: 'pg_fan',
        observed_at: T * 1000,
        keywords: null,
        engagement: { likes: 57, comments: 12 },
      },
    ]);
  });

  test('a later poll fetches only ids above the cursor', async () => {
    const source = hackerNewsSource({ baseUrl: `${server.url}/v0`, intervalMs: 60_000 });
    newStories = [41000107, 41000106, 41000105, 41000104];
    const { signals, cursor } = await source.poll(pollContext('41000105', NOW));
    assert.deepEqual(itemsRequested().sort(), [41000106, 41000107]);
    assert.deepEqual(
      signals.map((s) => s.external_id),
      ['41000106', '41000107'],
    );
    assert.equal(cursor, '41000107');

    server.requests.length = 0;
    const idle = await source.poll(pollContext(cursor, NOW));
    assert.deepEqual(idle, { signals: [], cursor: '41000107' });
    assert.deepEqual(itemsRequested(), []);
  });

  test('takes at most maxItems: the newest on a first poll, the oldest unseen after that', async () => {
    newStories = Array.from({ length: 30 }, (_, i) => 50000030 - i);
    const source = hackerNewsSource({ baseUrl: `${server.url}/v0`, intervalMs: 60_000, maxItems: 5 });
    const first = await source.poll(pollContext(null, NOW));
    assert.deepEqual(
      first.signals.map((s) => Number(s.external_id)),
      [50000026, 50000027, 50000028, 50000029, 50000030],
    );
    const catchUp = await source.poll(pollContext('50000010', NOW));
    assert.deepEqual(
      catchUp.signals.map((s) => Number(s.external_id)),
      [50000011, 50000012, 50000013, 50000014, 50000015],
    );
    assert.equal(catchUp.cursor, '50000015');
  });

  test('fetches items at most 8 at a time', async () => {
    newStories = Array.from({ length: 40 }, (_, i) => 60000040 - i);
    itemDelayMs = 20;
    const source = hackerNewsSource({ baseUrl: `${server.url}/v0`, intervalMs: 60_000 });
    const { signals } = await source.poll(pollContext(null, NOW));
    assert.equal(signals.length, 40);
    assert.ok(maxInFlight <= 8, `at most 8 in flight, saw ${maxInFlight}`);
    assert.ok(maxInFlight > 1, 'items are fetched concurrently');
  });

  test('a 500 for the story list throws SourceError with status 500', async () => {
    const broken = await standIn((_req, res) => send(res, 500, 'Internal error: details'));
    try {
      const source = hackerNewsSource({ baseUrl: `${broken.url}/v0`, intervalMs: 60_000 });
      await assert.rejects(source.poll(pollContext(null, NOW)), (error: unknown) => {
        assert.ok(error instanceof SourceError);
        assert.equal(error.status, 500);
        assert.equal(error.message, `${broken.host} answered 500`);
        return true;
      });
    } finally {
      await broken.close();
    }
  });

  test('a failing item fails the poll so the batch is retried, not skipped', async () => {
    newStories = [41000105];
    failItems = true;
    const source = hackerNewsSource({ baseUrl: `${server.url}/v0`, intervalMs: 60_000 });
    await assert.rejects(source.poll(pollContext(null, NOW)), { name: 'SourceError', status: 503 });
  });

  test('a story list that is not an array throws SourceError', async () => {
    const odd = await standIn((_req, res) => send(res, 200, '{"ids":[1,2]}'));
    try {
      const source = hackerNewsSource({ baseUrl: `${odd.url}/v0`, intervalMs: 60_000 });
      await assert.rejects(source.poll(pollContext(null, NOW)), /unexpected story list/);
    } finally {
      await odd.close();
    }
  });
});
