import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { rssSource } from '../../../../src/modules/signals/sources/rss.ts';
import { SourceError } from '../../../../src/modules/signals/sources/types.ts';
import { assertContract, pollContext, type StandIn, send, standIn } from './stand-in.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');
const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/sources/${name}`, import.meta.url), 'utf8');
const RSS = fixture('tech-desk.rss.xml');
const ATOM = fixture('engineering.atom.xml');

/** A minimal RSS 2.0 document for the cursor tests. */
const rssOf = (items: { guid: string; date: string }[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Wire</title><link>https://wire.example.com/</link>${items
    .map(
      (i) =>
        `<item><title>Story ${i.guid}</title><link>https://wire.example.com/${i.guid}</link><guid>${i.guid}</guid><pubDate>${new Date(i.date).toUTCString()}</pubDate></item>`,
    )
    .join('')}</channel></rss>`;

describe('rss source', () => {
  // What each path answers; tests replace entries.
  const routes = new Map<string, { status: number; body: string; headers?: Record<string, string> }>();
  let server: StandIn;
  before(async () => {
    server = await standIn((req, res) => {
      const route = routes.get(req.url ?? '');
      if (!route) return send(res, 404, 'no such feed');
      if (route.headers?.etag && req.headers['if-none-match'] === route.headers.etag) {
        return send(res, 304, '', { etag: route.headers.etag });
      }
      send(res, route.status, route.body, { 'content-type': 'application/rss+xml', ...route.headers });
    });
  });
  after(() => server.close());

  test('maps RSS 2.0 items: guid, link, creator, categories, stripped HTML; skips empty items', async () => {
    routes.set('/tech.xml', { status: 200, body: RSS });
    const source = rssSource({ name: null, url: `${server.url}/tech.xml`, index: 0, intervalMs: 60_000 });
    assert.equal(source.id, 'rss');
    assert.equal(source.kind, 'poll');
    assert.equal(source.name, server.host);
    assert.equal(
      source.coverage,
      `Items of the feed at ${server.url}/tech.xml, under its publisher’s terms.`,
    );
    // The publisher's terms apply, and the feed is where they are stated.
    assert.equal(source.licence_url, `${server.url}/tech.xml`);

    const { signals } = await source.poll(pollContext(null, NOW));
    assertContract(signals, NOW);
    assert.equal(source.attribution, 'Example Tech Desk', 'attribution is the channel title');
    assert.deepEqual(signals, [
      {
        source: 'news',
        external_id: 'example-news-1001',
        text: 'The new process & packaging… Shipping in 2027.',
        title: 'Chipmaker & partners unveil 2nm process',
        url: 'https://news.example.com/2026/11/21/chipmaker-2nm',
        author: 'Jane Doe',
        observed_at: Date.parse('2026-11-21T09:30:00Z'),
        category: 'Semiconductors',
        keywords: ['Semiconductors', 'Hardware'],
      },
      {
        source: 'news',
        external_id: 'https://news.example.com/2026/11/21/cloud-inquiry',
        text: 'The regulator said on Friday it would look into egress fees & lock-in.',
        title: 'Regulator opens inquiry into cloud pricing',
        url: 'https://news.example.com/2026/11/21/cloud-inquiry',
        author: 'Sam Lee',
        observed_at: Date.parse('2026-11-21T08:05:00Z'),
        category: null,
        keywords: null,
      },
      {
        source: 'news',
        external_id: createHash('sha256')
          .update('Markets close higher\n2026-11-20T17:00:00.000Z')
          .digest('hex'),
        text: 'Markets close higher',
        title: 'Markets close higher',
        url: null,
        author: null,
        observed_at: Date.parse('2026-11-20T17:00:00Z'),
        category: null,
        keywords: null,
      },
      {
        source: 'news',
        external_id: 'https://news.example.com/?p=1005',
        text: 'Coming soon',
        title: 'Embargoed: launch event',
        url: 'https://news.example.com/?p=1005',
        author: null,
        observed_at: NOW,
        category: null,
        keywords: null,
      },
    ]);
  });

  test('maps Atom 1.0 entries: alternate link, published time, html/xhtml/text constructs, feed author', async () => {
    routes.set('/atom.xml', { status: 200, body: ATOM });
    const source = rssSource({
      name: 'Eng blog',
      url: `${server.url}/atom.xml`,
      index: 2,
      intervalMs: 60_000,
    });
    assert.equal(source.id, 'rss-3');
    assert.equal(source.name, 'Eng blog');

    const { signals } = await source.poll(pollContext(null, NOW));
    assertContract(signals, NOW);
    assert.equal(source.attribution, 'Example Engineering Blog');
    assert.deepEqual(signals, [
      {
        source: 'news',
        external_id: 'tag:blog.example.org,2026:post-42',
        text: 'We moved 80% of reads to replicas & cut p99 by half.',
        title: 'Scaling Postgres reads',
        url: 'https://blog.example.org/2026/postgres-reads',
        author: 'Ada Park',
        observed_at: Date.parse('2026-11-20T13:00:00Z'),
        category: 'Databases',
        keywords: ['Databases', 'postgres'],
      },
      {
        source: 'news',
        external_id: 'tag:blog.example.org,2026:post-43',
        text: 'Adds streaming exports & a new CLI.',
        title: 'Release notes 4.2',
        url: `${server.url}/2026/release-4-2`,
        author: 'Platform Team',
        observed_at: Date.parse('2026-11-21T09:00:00Z'),
        category: null,
        keywords: null,
      },
      {
        source: 'news',
        external_id: 'tag:blog.example.org,2026:post-44',
        text: 'Uses <literal> markup & ampersands',
        title: 'Plain <text> entry',
        url: null,
        author: 'Platform Team',
        observed_at: Date.parse('2026-11-19T12:00:00Z'),
        category: null,
        keywords: null,
      },
    ]);
  });

  test('sends the stored ETag, treats 304 as nothing new, and then returns only newer items', async () => {
    const url = `${server.url}/wire.xml`;
    const source = rssSource({ name: null, url, index: 1, intervalMs: 60_000 });
    const v1 = [
      { guid: 'w2', date: '2026-11-21T09:00:00Z' },
      { guid: 'w1', date: '2026-11-21T08:00:00Z' },
    ];
    routes.set('/wire.xml', { status: 200, body: rssOf(v1), headers: { etag: '"v1"' } });
    const first = await source.poll(pollContext(null, NOW));
    assert.deepEqual(
      first.signals.map((s) => s.external_id),
      ['w2', 'w1'],
    );
    assert.ok(first.cursor !== null && first.cursor.length < 4096);

    const before = server.requests.length;
    const unchanged = await source.poll(pollContext(first.cursor, NOW + 60_000));
    assert.equal(server.requests[before].headers['if-none-match'], '"v1"');
    assert.deepEqual(unchanged, { signals: [], cursor: first.cursor });

    // Same-second item not seen before comes through; w2 (already handed over) does not.
    routes.set('/wire.xml', {
      status: 200,
      body: rssOf([
        { guid: 'w4', date: '2026-11-21T09:30:00Z' },
        { guid: 'w3', date: '2026-11-21T09:00:00Z' },
        ...v1,
      ]),
      headers: { etag: '"v2"' },
    });
    const second = await source.poll(pollContext(unchanged.cursor, NOW + 120_000));
    assert.deepEqual(
      second.signals.map((s) => s.external_id),
      ['w4', 'w3'],
    );
    const third = await source.poll(pollContext(second.cursor, NOW + 180_000));
    assert.deepEqual(third.signals, [], 'answered 304 for "v2"');
  });

  test('sends If-Modified-Since from a stored Last-Modified', async () => {
    const modified = 'Sat, 21 Nov 2026 09:00:00 GMT';
    routes.set('/lm.xml', { status: 200, body: rssOf([]), headers: { 'last-modified': modified } });
    const source = rssSource({ name: null, url: `${server.url}/lm.xml`, index: 0, intervalMs: 60_000 });
    const first = await source.poll(pollContext(null, NOW));
    await source.poll(pollContext(first.cursor, NOW));
    assert.equal(server.requests.at(-1)?.headers['if-modified-since'], modified);
  });

  test('a 500 answer throws SourceError with the status and without the body', async () => {
    routes.set('/broken.xml', { status: 500, body: 'stack trace: secret' });
    const source = rssSource({ name: null, url: `${server.url}/broken.xml`, index: 0, intervalMs: 60_000 });
    await assert.rejects(source.poll(pollContext(null, NOW)), (error: unknown) => {
      assert.ok(error instanceof SourceError);
      assert.equal(error.status, 500);
      assert.equal(error.message, `${server.host} answered 500`);
      return true;
    });
  });

  test('a body that is not a feed throws SourceError', async () => {
    const source = rssSource({ name: null, url: `${server.url}/page.html`, index: 0, intervalMs: 60_000 });
    routes.set('/page.html', { status: 200, body: '<html><body><p>Not a feed</p></body></html>' });
    await assert.rejects(source.poll(pollContext(null, NOW)), /neither an RSS 2.0 nor an Atom 1.0 feed/);
    routes.set('/page.html', { status: 200, body: '<rss><channel><item></channel' });
    await assert.rejects(source.poll(pollContext(null, NOW)), SourceError);
  });

  test('entities declared in a DOCTYPE are not expanded', async () => {
    const body = `<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<rss version="2.0"><channel><title>Evil</title><item><guid>e1</guid><title>Expand &b; here &#x263A;</title></item></channel></rss>`;
    routes.set('/evil.xml', { status: 200, body });
    const source = rssSource({ name: null, url: `${server.url}/evil.xml`, index: 0, intervalMs: 60_000 });
    const { signals } = await source.poll(pollContext(null, NOW));
    assert.equal(signals.length, 1);
    assert.equal(signals[0].text, 'Expand &b; here ☺');
    assert.doesNotMatch(signals[0].text, /AAAA/);
  });

  test('long text is truncated to 10,000 characters and long titles to 500', async () => {
    const long = 'word '.repeat(5000);
    routes.set('/long.xml', {
      status: 200,
      body: `<rss version="2.0"><channel><title>Long</title><item><guid>l1</guid><title>${'T'.repeat(800)}</title><description>${long}</description></item></channel></rss>`,
    });
    const source = rssSource({ name: null, url: `${server.url}/long.xml`, index: 0, intervalMs: 60_000 });
    const { signals } = await source.poll(pollContext(null, NOW));
    assertContract(signals, NOW);
    assert.equal(signals[0].text.length, 9999, 'cut at 10,000 then the trailing space trimmed');
    assert.equal(signals[0].title?.length, 500);
    assert.equal(signals[0].observed_at, NOW, 'an undated item is observed now');
  });
});
