import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadChangelog, parseChangelog } from '../../../src/modules/content/releases/changelog.ts';
import { feedNames, mergeReleases, versionOf } from '../../../src/modules/content/releases/service.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { buildTestApp, call } from '../../helpers/app.ts';
import { send, standIn } from '../signals/sources/stand-in.ts';

const NOW = Date.parse('2026-11-23T12:00:00Z');

const ATOM = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Release notes from upstream</title>
  <entry>
    <id>tag:github.com,2008:Repository/1/v2.0.0</id>
    <updated>2026-11-22T10:00:00Z</updated>
    <link rel="alternate" type="text/html" href="https://github.com/acme/upstream/releases/tag/v2.0.0"/>
    <title>v2.0.0</title>
  </entry>
  <entry>
    <id>tag:github.com,2008:Repository/1/v1.0.0</id>
    <updated>2026-10-01T10:00:00Z</updated>
    <link rel="alternate" type="text/html" href="https://github.com/acme/upstream/releases/tag/v1.0.0"/>
    <title>v1.0.0 &amp; friends</title>
  </entry>
  <entry>
    <id>tag:github.com,2008:Repository/2/v0.10.0</id>
    <updated>2026-11-23T08:00:00Z</updated>
    <title>v0.10.0</title>
  </entry>
  <entry><id>undated</id><title>v0.0.1</title></entry>
</feed>`;

const RSS = `<?xml version="1.0"?>
<rss version="2.0"><channel><title>Mirror</title>
  <item>
    <title>v2.0.0 (mirrored)</title>
    <guid isPermaLink="false">tag:github.com,2008:Repository/1/v2.0.0</guid>
    <pubDate>Sun, 22 Nov 2026 10:00:00 GMT</pubDate>
  </item>
  <item>
    <title>Mirror 3.1</title>
    <link>https://mirror.example/releases/3.1</link>
    <pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate>
  </item>
</channel></rss>`;

describe('releases', () => {
  test("the service's own changelog lists as source api, newest first", async () => {
    const ctx = await buildTestApp();
    try {
      const res = await call(ctx.app, 'GET', '/api/releases');
      assert.equal(res.statusCode, 200);
      assert.ok(Array.isArray(res.data));
      assert.ok(res.data.length >= 2);
      assert.deepEqual(res.data[0], {
        id: 'api:0.10.0',
        title: 'Crestwatch 0.10.0',
        published_at: '2026-11-23T00:00:00.000Z',
        source: 'api',
        source_id: '0.10.0',
      });
      const times = res.data.map((r: { published_at: string }) => Date.parse(r.published_at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
    } finally {
      await ctx.close();
    }
  });

  test('feeds merge with the changelog newest first, deduplicated, polled and cached', async () => {
    let atomCalls = 0;
    const server = await standIn((req, res) => {
      if (req.url === '/atom') {
        atomCalls++;
        if (req.headers['if-none-match'] === '"v1"') return send(res, 304, '');
        return send(res, 200, ATOM, { 'content-type': 'application/atom+xml', etag: '"v1"' });
      }
      send(res, 200, RSS, { 'content-type': 'application/rss+xml' });
    });
    const clock = new ManualClock(NOW);
    const ctx = await buildTestApp({
      clock,
      env: { RELEASE_FEEDS: `upstream=${server.url}/atom,mirror=${server.url}/rss` },
    });
    try {
      const res = await call(ctx.app, 'GET', '/api/releases');
      assert.equal(res.statusCode, 200);
      const top = res.data.map((r: { source: string; title: string }) => `${r.source} ${r.title}`);
      assert.deepEqual(top.slice(0, 5), [
        'api Crestwatch 0.10.0',
        'upstream v2.0.0',
        'api Crestwatch 0.3.0',
        'api Crestwatch 0.2.0',
        'api Crestwatch 0.1.0',
      ]);
      assert.deepEqual(
        top.filter((t: string) => !t.startsWith('api ')),
        ['upstream v2.0.0', 'mirror Mirror 3.1', 'upstream v1.0.0 & friends'],
        "the mirror's copy of v2.0.0 and upstream's v0.10.0 (the changelog's, same day) appear once",
      );
      const upstream = res.data.find((r: { title: string }) => r.title === 'v2.0.0');
      assert.equal(upstream.source_id, 'tag:github.com,2008:Repository/1/v2.0.0');
      assert.equal(upstream.published_at, '2026-11-22T10:00:00.000Z');
      assert.match(upstream.id, /^upstream:[0-9a-f]{16}$/);
      assert.ok(
        !res.data.some((r: { title: string }) => r.title === 'v0.0.1'),
        'undated entries are left out',
      );
      assert.equal(new Set(res.data.map((r: { id: string }) => r.id)).size, res.data.length);

      await call(ctx.app, 'GET', '/api/releases');
      assert.equal(atomCalls, 1, 'cached between polls');
      clock.advance(16 * 60_000);
      const again = await call(ctx.app, 'GET', '/api/releases');
      assert.equal(atomCalls, 2);
      assert.deepEqual(again.data, res.data, 'a 304 keeps the cached entries');

      const status = await call(ctx.app, 'GET', '/status');
      const names = status.data.components.map((c: { name: string }) => c.name);
      assert.ok(names.includes('upstream') && names.includes('mirror'));
      assert.equal(status.data.overall_status, 'operational');
    } finally {
      await ctx.close();
      await server.close();
    }
  });

  test('a failing release feed marks its component degraded while the changelog entries still list', async () => {
    let failing = true;
    const server = await standIn((_req, res) =>
      failing
        ? send(res, 503, 'upstream body that must not leak')
        : send(res, 200, ATOM, { 'content-type': 'application/atom+xml' }),
    );
    const clock = new ManualClock(NOW);
    const ctx = await buildTestApp({ clock, env: { RELEASE_FEEDS: `upstream=${server.url}/atom` } });
    try {
      const res = await call(ctx.app, 'GET', '/api/releases');
      assert.equal(res.statusCode, 200);
      assert.ok(res.data.length > 0);
      assert.ok(res.data.every((r: { source: string }) => r.source === 'api'));
      assert.equal(res.data[0].id, 'api:0.10.0');

      const status = await call(ctx.app, 'GET', '/status');
      const feed = status.data.components.find((c: { name: string }) => c.name === 'upstream');
      assert.equal(feed.status, 'degraded');
      assert.match(feed.description, /answered 503/);
      assert.doesNotMatch(feed.description, /must not leak/);
      assert.equal(status.data.overall_status, 'degraded');

      // Recovered, and past the backoff: read again, listed, operational.
      failing = false;
      clock.advance(5 * 60_000);
      const later = await call(ctx.app, 'GET', '/api/releases');
      assert.ok(later.data.some((r: { source: string }) => r.source === 'upstream'));
      clock.advance(5000);
      const healthy = await call(ctx.app, 'GET', '/status');
      assert.equal(
        healthy.data.components.find((c: { name: string }) => c.name === 'upstream').status,
        'operational',
      );

      // Failing again: the cached entries keep listing.
      failing = true;
      clock.advance(16 * 60_000);
      const cached = await call(ctx.app, 'GET', '/api/releases');
      assert.ok(cached.data.some((r: { source: string }) => r.source === 'upstream'));
      clock.advance(5000);
      const degraded = await call(ctx.app, 'GET', '/status');
      const again = degraded.data.components.find((c: { name: string }) => c.name === 'upstream');
      assert.equal(again.status, 'degraded');
      assert.match(again.description, /Serving 3 entries/);
    } finally {
      await ctx.close();
      await server.close();
    }
  });

  test('parsing and merging', () => {
    const parsed = parseChangelog(
      [
        '# Changelog',
        '## [Unreleased]',
        '- soon',
        '## [1.2.0] - 2026-02-03',
        '### Added',
        '## 1.1.0 - 2026-13-40',
        '## [1.0.0] - 2026-01-01',
      ].join('\n'),
    );
    assert.deepEqual(
      parsed.map((r) => [r.id, r.published_at]),
      [
        ['api:1.2.0', '2026-02-03T00:00:00.000Z'],
        ['api:1.0.0', '2026-01-01T00:00:00.000Z'],
      ],
    );
    assert.equal(loadChangelog('/nonexistent/CHANGELOG.md').releases.length, 0);
    assert.equal(versionOf('Release v1.2.3-beta.1'), '1.2.3-beta.1');
    assert.equal(versionOf('Spring update'), null);

    const feed = (source: string, title: string, at: string, sourceId: string) => ({
      id: `${source}:${sourceId}`,
      title,
      published_at: at,
      source,
      source_id: sourceId,
    });
    const merged = mergeReleases(parsed, [
      feed('gh', 'v1.2.0', '2026-02-03T15:00:00Z', 'a'), // the changelog's own release
      feed('other', 'v1.0.0', '2026-03-01T00:00:00Z', 'b'), // another project's 1.0.0: kept
      feed('mirror', 'copy', '2026-03-01T00:00:00Z', 'b'), // the same entry again
    ]);
    assert.deepEqual(
      merged.map((r) => r.id),
      ['other:b', 'api:1.2.0', 'api:1.0.0'],
    );
    assert.deepEqual(
      feedNames(
        [
          { name: null, url: 'https://github.com/a.atom' },
          { name: null, url: 'https://github.com/b.atom' },
          { name: 'api', url: 'https://x.example/feed' },
        ],
        ['api', 'database'],
      ).map((f) => f.name),
      ['github.com', 'github.com-2', 'api-2'],
    );
  });
});
