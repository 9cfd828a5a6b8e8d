import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { redditSource } from '../../../../src/modules/signals/sources/reddit.ts';
import { SourceError } from '../../../../src/modules/signals/sources/types.ts';
import { assertContract, pollContext, type StandIn, send, standIn } from './stand-in.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');
const S = NOW / 1000; // unix seconds

/** A post (`t3`) in Reddit's listing shape, with the fields the adapter reads and some it ignores. */
function post(id: string, createdUtc: number, extra: Record<string, unknown> = {}) {
  return {
    kind: 't3',
    data: {
      approved_at_utc: null,
      subreddit: 'technology',
      selftext: '',
      author_fullname: `t2_${id}`,
      title: `Post ${id}`,
      name: `t3_${id}`,
      score: 10,
      num_comments: 2,
      over_18: false,
      link_flair_text: null,
      id,
      author: `user_${id}`,
      permalink: `/r/technology/comments/${id}/post_${id}/`,
      url: `https://example.com/${id}`,
      created_utc: createdUtc,
      ...extra,
    },
  };
}

const listing = (children: unknown[]) =>
  JSON.stringify({
    kind: 'Listing',
    data: { after: 't3_zzz', dist: children.length, children, before: null },
  });

describe('reddit source', () => {
  let server: StandIn;
  let answer: { status: number; body: string; headers?: Record<string, string> };
  before(async () => {
    server = await standIn((_req, res) => send(res, answer.status, answer.body, answer.headers));
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const source = () =>
    redditSource({ baseUrl: `${server.url}/`, subreddits: ['technology', 'worldnews'], intervalMs: 60_000 });

  test('asks for the newest posts of all subreddits with a descriptive User-Agent', async () => {
    answer = { status: 200, body: listing([]) };
    await source().poll(pollContext(null, NOW));
    assert.equal(server.requests[0].url, '/r/technology+worldnews/new.json?limit=100&raw_json=1');
    assert.equal(server.requests[0].headers['user-agent'], 'crestwatch/0.10 (trend intelligence)');
    const custom = redditSource({
      baseUrl: server.url,
      subreddits: ['all'],
      intervalMs: 60_000,
      userAgent: 'crestwatch/0.10 (by u/ops)',
    });
    await custom.poll(pollContext(null, NOW));
    assert.equal(server.requests[1].headers['user-agent'], 'crestwatch/0.10 (by u/ops)');
  });

  test('maps posts: title and selftext, permalink, flair, engagement; skips adult, removed and non-post items', async () => {
    answer = {
      status: 200,
      body: listing([
        post('1h2k9xa', S - 60, {
          title: 'EU passes the AI Act amendments',
          selftext: 'Full text of the vote:\n\n* 401 for\n* 112 against',
          link_flair_text: 'Politics',
          score: 1532,
          num_comments: 287,
        }),
        post('1h2k8zz', S - 120, { over_18: true }),
        post('1h2k8yy', S - 180, { title: '', selftext: '[removed]' }),
        { kind: 't1', data: { name: 't1_comment', body: 'a comment', created_utc: S - 10 } },
        post('1h2k8ww', S - 240, { author: '[deleted]', selftext: '[deleted]', score: -3 }),
        { kind: 't3' },
      ]),
    };
    const { signals, cursor } = await source().poll(pollContext(null, NOW));
    assertContract(signals, NOW);
    assert.deepEqual(signals, [
      {
        source: 'reddit',
        external_id: 't3_1h2k9xa',
        text: 'EU passes the AI Act amendments\n\nFull text of the vote: * 401 for * 112 against',
        title: 'EU passes the AI Act amendments',
        url: 'https://www.reddit.com/r/technology/comments/1h2k9xa/post_1h2k9xa/',
        author: 'user_1h2k9xa',
        observed_at: (S - 60) * 1000,
        category: 'r/technology',
        keywords: ['Politics'],
        engagement: { likes: 1532, comments: 287 },
      },
      {
        source: 'reddit',
        external_id: 't3_1h2k8ww',
        text: 'Post 1h2k8ww',
        title: 'Post 1h2k8ww',
        url: 'https://www.reddit.com/r/technology/comments/1h2k8ww/post_1h2k8ww/',
        author: null,
        observed_at: (S - 240) * 1000,
        category: 'r/technology',
        keywords: null,
        engagement: { likes: 0, comments: 2 },
      },
    ]);
    assert.ok(cursor !== null);
  });

  test('a later poll returns only posts newer than the cursor, including new ones from the same second', async () => {
    answer = { status: 200, body: listing([post('b', S - 60), post('a', S - 120)]) };
    const first = await source().poll(pollContext(null, NOW));
    assert.deepEqual(
      first.signals.map((s) => s.external_id),
      ['t3_b', 't3_a'],
    );

    answer = {
      status: 200,
      body: listing([post('d', S - 30), post('c', S - 60), post('b', S - 60), post('a', S - 120)]),
    };
    const second = await source().poll(pollContext(first.cursor, NOW + 60_000));
    assert.deepEqual(
      second.signals.map((s) => s.external_id),
      ['t3_d', 't3_c'],
    );

    const third = await source().poll(pollContext(second.cursor, NOW + 120_000));
    assert.deepEqual(third.signals, []);
    assert.equal(third.cursor, second.cursor);
  });

  test('429 throws SourceError with the status and the retry time', async () => {
    answer = {
      status: 429,
      body: '{"message": "Too Many Requests", "error": 429}',
      headers: { 'retry-after': '60' },
    };
    await assert.rejects(source().poll(pollContext(null, NOW)), (error: unknown) => {
      assert.ok(error instanceof SourceError);
      assert.equal(error.status, 429);
      assert.match(error.message, /answered 429/);
      assert.match(error.message, /retry after 60 s/);
      return true;
    });
  });

  test('a 500 answer throws SourceError with status 500', async () => {
    answer = { status: 500, body: '<html>upstream connect error</html>' };
    await assert.rejects(source().poll(pollContext(null, NOW)), (error: unknown) => {
      assert.ok(error instanceof SourceError);
      assert.equal(error.status, 500);
      assert.equal(error.message, `${server.host} answered 500`);
      return true;
    });
  });

  test('a body that is not a listing throws SourceError', async () => {
    answer = { status: 200, body: '<!doctype html><title>blocked</title>' };
    await assert.rejects(source().poll(pollContext(null, NOW)), /not JSON/);
    answer = { status: 200, body: '{"kind":"t3","data":{}}' };
    await assert.rejects(source().poll(pollContext(null, NOW)), /unexpected listing/);
  });
});
