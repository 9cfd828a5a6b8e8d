import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  deriveExcerpt,
  readingTimeMinutes,
  slugify,
  stripMarkdown,
} from '../../../src/modules/content/blog/text.ts';
import { importPosts } from '../../../src/modules/content/index.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import {
  assertProblem,
  buildTestApp,
  call,
  createUser,
  type Json,
  type TestContext,
} from '../../helpers/app.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const PUBLIC_FIELDS = [
  'author_name',
  'content',
  'cover_image',
  'excerpt',
  'id',
  'published_at',
  'reading_time_minutes',
  'slug',
  'tags',
  'title',
];

describe('blog posts', () => {
  let ctx: TestContext;
  let clock: ManualClock;
  const create = (body: Record<string, unknown>) =>
    call(ctx.app, 'POST', '/api/admin/blog/posts', { key: ctx.operatorKey, body });

  before(async () => {
    clock = new ManualClock(NOW);
    ctx = await buildTestApp({ clock });
    const posts = [
      {
        title: 'Launch week recap',
        content: 'We shipped the **aurora** dashboard and a faster ingest path.',
        category: 'Product',
        published_at: '2026-11-10T09:00:00Z',
        author_name: 'Ana',
      },
      {
        title: 'Aurora: how velocity works',
        content: 'Velocity compares the last hour with the day.',
        category: 'Engineering',
        published_at: '2026-11-12T09:00:00Z',
      },
      {
        title: 'Notes from the field',
        excerpt: 'A short note about aurora watchers.',
        content: 'Nothing much here about lighthouses and zeppelins.',
        category: 'engineering',
        published_at: '2026-11-15T09:00:00Z',
      },
      {
        title: 'Coming soon: zeppelin mode',
        content: 'A scheduled post about zeppelins.',
        category: 'Product',
        published_at: '2026-11-25T09:00:00Z',
      },
      { title: 'Draft about zeppelins', content: 'Still a draft on zeppelins.', category: 'Product' },
    ];
    for (const post of posts) {
      const res = await create(post);
      assert.equal(res.statusCode, 201, res.body);
    }
  });
  after(async () => ctx.close());

  test('operators get AdminBlogPost with a status; slug, excerpt and reading time are computed', async () => {
    const words = Array.from({ length: 401 }, (_, i) => `word${i}`).join(' ');
    const res = await create({
      title: 'Crème brûlée & Trends: 2027!',
      content: `# Heading\n\n${words}`,
      status: 'draft',
    });
    assert.equal(res.statusCode, 201);
    assert.equal(res.data.slug, 'creme-brulee-trends-2027');
    assert.equal(res.data.status, 'draft');
    assert.equal(res.data.published_at, null);
    assert.equal(res.data.reading_time_minutes, 3);
    assert.ok(res.data.excerpt.startsWith('Heading word0 word1'));
    assert.ok(res.data.excerpt.length <= 201);
    assert.ok(res.data.excerpt.endsWith('…'));
    assert.equal(res.data.category, null);

    const scheduled = (
      await call(ctx.app, 'GET', '/api/admin/blog/posts?status=scheduled', {
        key: ctx.operatorKey,
      })
    ).data;
    assert.deepEqual(
      scheduled.posts.map((p: { slug: string }) => p.slug),
      ['coming-soon-zeppelin-mode'],
    );
    assert.equal(scheduled.posts[0].status, 'scheduled');
    await call(ctx.app, 'DELETE', `/api/admin/blog/posts/${res.data.id}`, { key: ctx.operatorKey });
  });

  test('a slug clash is a 409', async () => {
    const res = await create({ title: 'Launch week recap', content: 'Again.' });
    assertProblem(res, 409);
    assert.equal(res.data.code, 'slug_taken');
    const other = await create({ title: 'Other', slug: 'launch-week-recap', content: 'x' });
    assertProblem(other, 409);
  });

  test('drafts and scheduled posts never appear publicly until due', async () => {
    const list = await call(ctx.app, 'GET', '/api/blog/posts');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.data.posts.map((p: { slug: string }) => p.slug),
      ['notes-from-the-field', 'aurora-how-velocity-works', 'launch-week-recap'],
    );
    assertProblem(await call(ctx.app, 'GET', '/api/blog/posts/coming-soon-zeppelin-mode'), 404);
    assertProblem(await call(ctx.app, 'GET', '/api/blog/posts/draft-about-zeppelins'), 404);
    const search = await call(ctx.app, 'GET', '/api/blog/posts?search=zeppelin');
    assert.deepEqual(
      search.data.posts.map((p: { slug: string }) => p.slug),
      ['notes-from-the-field'],
    );

    clock.set(Date.parse('2026-11-25T09:00:00Z'));
    try {
      const due = await call(ctx.app, 'GET', '/api/blog/posts');
      assert.equal(due.data.posts[0].slug, 'coming-soon-zeppelin-mode');
      assert.equal(due.data.meta.total, 4);
      const one = await call(ctx.app, 'GET', '/api/blog/posts/coming-soon-zeppelin-mode');
      assert.equal(one.statusCode, 200);
      assert.equal(one.data.content, 'A scheduled post about zeppelins.');
      assert.ok(
        !(await call(ctx.app, 'GET', '/api/blog/posts')).data.posts.some(
          (p: { slug: string }) => p.slug === 'draft-about-zeppelins',
        ),
      );
    } finally {
      clock.set(NOW);
    }
  });

  test('public posts have exactly the BlogPost fields; the list leaves content out', async () => {
    const list = await call(ctx.app, 'GET', '/api/blog/posts');
    for (const post of list.data.posts) {
      assert.deepEqual(Object.keys(post).sort(), PUBLIC_FIELDS);
      assert.equal(post.content, null);
    }
    const one = await call(ctx.app, 'GET', '/api/blog/posts/launch-week-recap');
    assert.deepEqual(Object.keys(one.data).sort(), PUBLIC_FIELDS);
    assert.equal(one.data.published_at, '2026-11-10T09:00:00.000Z');
    assert.equal(one.data.author_name, 'Ana');
    assert.equal(one.data.reading_time_minutes, 1);
    assert.equal(one.data.excerpt, 'We shipped the aurora dashboard and a faster ingest path.');
    assert.match(one.data.content, /\*\*aurora\*\*/);
  });

  test('search finds a word from the body and ranks title over excerpt over content', async () => {
    const body = await call(ctx.app, 'GET', '/api/blog/posts?search=INGEST');
    assert.deepEqual(
      body.data.posts.map((p: { slug: string }) => p.slug),
      ['launch-week-recap'],
    );
    const ranked = await call(ctx.app, 'GET', '/api/blog/posts?search=aurora');
    assert.deepEqual(
      ranked.data.posts.map((p: { slug: string }) => p.slug),
      ['aurora-how-velocity-works', 'notes-from-the-field', 'launch-week-recap'],
    );
    assert.equal(ranked.data.meta.sort_by, 'relevance');
    const both = await call(ctx.app, 'GET', '/api/blog/posts?search=aurora%20velocity');
    assert.deepEqual(
      both.data.posts.map((p: { slug: string }) => p.slug),
      ['aurora-how-velocity-works'],
    );
    const literal = await call(ctx.app, 'GET', '/api/blog/posts?search=%25');
    assert.equal(literal.data.meta.total, 0);
  });

  test('a filter by date range and category narrows; meta echoes every filter with defaults 20 / 0', async () => {
    const plain = await call(ctx.app, 'GET', '/api/blog/posts');
    assert.deepEqual(plain.data.meta, {
      total: 3,
      limit: 20,
      offset: 0,
      period: null,
      sort_by: 'published_at',
      order: 'desc',
      search: null,
      category: null,
      tag: null,
      start_date: null,
      end_date: null,
    });
    const res = await call(
      ctx.app,
      'GET',
      '/api/blog/posts?category=ENGINEERING&start_date=2026-11-12&end_date=2026-11-14',
    );
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      res.data.posts.map((p: { slug: string }) => p.slug),
      ['aurora-how-velocity-works'],
    );
    assert.deepEqual(res.data.meta, {
      total: 1,
      limit: 20,
      offset: 0,
      period: 'custom',
      sort_by: 'published_at',
      order: 'desc',
      search: null,
      category: 'ENGINEERING',
      tag: null,
      start_date: '2026-11-12',
      end_date: '2026-11-14',
    });
    const category = await call(ctx.app, 'GET', '/api/blog/posts?category=engineering');
    assert.deepEqual(
      category.data.posts.map((p: { slug: string }) => p.slug),
      ['notes-from-the-field', 'aurora-how-velocity-works'],
    );
    const inclusiveEnd = await call(ctx.app, 'GET', '/api/blog/posts?end_date=2026-11-10');
    assert.deepEqual(
      inclusiveEnd.data.posts.map((p: { slug: string }) => p.slug),
      ['launch-week-recap'],
    );
    const page = await call(ctx.app, 'GET', '/api/blog/posts?limit=1&offset=1&search=aurora');
    assert.deepEqual(
      page.data.posts.map((p: { slug: string }) => p.slug),
      ['notes-from-the-field'],
    );
    assert.equal(page.data.meta.total, 3);
    assert.equal(page.data.meta.limit, 1);
    assert.equal(page.data.meta.offset, 1);
    assert.equal(page.data.meta.search, 'aurora');
  });

  test('bad filters are 400s naming the field', async () => {
    const reversed = await call(ctx.app, 'GET', '/api/blog/posts?start_date=2026-11-14&end_date=2026-11-12');
    assertProblem(reversed, 400);
    assertProblem(await call(ctx.app, 'GET', '/api/blog/posts?start_date=yesterday'), 400);
    assertProblem(await call(ctx.app, 'GET', '/api/blog/posts?limit=0'), 400);
    assertProblem(await call(ctx.app, 'GET', '/api/blog/posts?sort=asc'), 400);
  });

  test('update: fields sent replace, status changes publish and unpublish; delete removes', async () => {
    const created = await create({ title: 'Work in progress', content: 'First draft text.' });
    assert.equal(created.data.status, 'draft');
    const id = created.data.id;
    const url = `/api/admin/blog/posts/${id}`;

    const published = await call(ctx.app, 'PUT', url, {
      key: ctx.operatorKey,
      body: { status: 'published', content: 'Final words here.', title: 'Finished work' },
    });
    assert.equal(published.statusCode, 200, published.body);
    assert.equal(published.data.status, 'published');
    assert.equal(published.data.published_at, new Date(NOW).toISOString());
    assert.equal(published.data.slug, 'work-in-progress');
    assert.equal(published.data.excerpt, 'Final words here.');
    assert.equal((await call(ctx.app, 'GET', '/api/blog/posts/work-in-progress')).statusCode, 200);

    const unpublished = await call(ctx.app, 'PUT', url, {
      key: ctx.operatorKey,
      body: { published_at: null },
    });
    assert.equal(unpublished.data.status, 'draft');
    assertProblem(await call(ctx.app, 'GET', '/api/blog/posts/work-in-progress'), 404);

    const scheduled = await call(ctx.app, 'PUT', url, {
      key: ctx.operatorKey,
      body: { status: 'scheduled', published_at: '2026-12-01T00:00:00Z' },
    });
    assert.equal(scheduled.data.status, 'scheduled');
    const past = await call(ctx.app, 'PUT', url, {
      key: ctx.operatorKey,
      body: { status: 'scheduled', published_at: '2026-01-01T00:00:00Z' },
    });
    assertProblem(past, 400);
    const draftWithDate = await call(ctx.app, 'PUT', url, {
      key: ctx.operatorKey,
      body: { status: 'draft', published_at: '2026-01-01T00:00:00Z' },
    });
    assertProblem(draftWithDate, 400);
    const clash = await call(ctx.app, 'PUT', url, {
      key: ctx.operatorKey,
      body: { slug: 'launch-week-recap' },
    });
    assertProblem(clash, 409);
    const unknownField = await call(ctx.app, 'PUT', url, { key: ctx.operatorKey, body: { views: 1 } });
    assertProblem(unknownField, 400);
    const badCover = await call(ctx.app, 'PUT', url, {
      key: ctx.operatorKey,
      body: { cover_image: 'javascript:alert(1)' },
    });
    assertProblem(badCover, 400);

    const got = await call(ctx.app, 'GET', url, { key: ctx.operatorKey });
    assert.equal(got.data.content, 'Final words here.');
    assert.equal((await call(ctx.app, 'DELETE', url, { key: ctx.operatorKey })).statusCode, 204);
    assertProblem(await call(ctx.app, 'GET', url, { key: ctx.operatorKey }), 404);
    assertProblem(await call(ctx.app, 'DELETE', url, { key: ctx.operatorKey }), 404);
    assertProblem(await call(ctx.app, 'PUT', url, { key: ctx.operatorKey, body: { title: 'x' } }), 404);
  });

  test('operator routes: no key → 401, a key without admin → 403; bad bodies → 400', async () => {
    const user = await createUser(ctx);
    assertProblem(await call(ctx.app, 'GET', '/api/admin/blog/posts'), 401);
    assertProblem(await call(ctx.app, 'GET', '/api/admin/blog/posts', { key: user.key }), 403);
    assertProblem(
      await call(ctx.app, 'POST', '/api/admin/blog/posts', {
        key: user.key,
        body: { title: 'x', content: 'y' },
      }),
      403,
    );
    assertProblem(await call(ctx.app, 'DELETE', '/api/admin/blog/posts/1', { key: user.key }), 403);
    assertProblem(await create({ title: 'No content' }), 400);
    assertProblem(await create({ title: 'x', content: 'y', slug: 'Not A Slug' }), 400);
    assertProblem(await create({ title: '日本語', content: 'y' }), 400);
    assertProblem(await create({ title: 'x', content: 'y', published_at: 'soon' }), 400);
    assertProblem(await create({ title: 'x', content: 'y', status: 'scheduled' }), 400);
  });
});

describe('blog tags', () => {
  let ctx: TestContext;
  const clock = new ManualClock(NOW);
  const admin = (method: 'POST' | 'PUT' | 'GET' | 'DELETE', url: string, body?: unknown) =>
    call(ctx.app, method, url, { key: ctx.operatorKey, body });
  const slugs = (res: { data: Json }) => res.data.posts.map((p: Json) => p.slug);
  const ids: Record<string, number> = {};

  before(async () => {
    ctx = await buildTestApp({ clock });
    for (const [slug, tags, published_at] of [
      ['ai-news', ['AI', 'News'], '2026-11-10T09:00:00Z'],
      ['ai-safety-notes', ['ai-safety'], '2026-11-11T09:00:00Z'],
      ['untagged', undefined, '2026-11-12T09:00:00Z'],
      ['deep-dive', ['  Deep   Learning ', 'ai', 'AI'], '2026-11-13T09:00:00Z'],
      ['ai-draft', ['ai'], null],
    ] as const) {
      const res = await admin('POST', '/api/admin/blog/posts', {
        title: slug,
        slug,
        content: `About ${slug}.`,
        published_at,
        ...(tags ? { tags } : {}),
      });
      assert.equal(res.statusCode, 201, res.body);
      ids[slug] = res.data.id;
    }
  });
  after(async () => ctx.close());

  test('tags are stored in lower case without duplicates, in the order given, and returned everywhere', async () => {
    const created = await admin('GET', `/api/admin/blog/posts/${ids['deep-dive']}`);
    assert.deepEqual(created.data.tags, ['deep learning', 'ai']);
    assert.deepEqual((await admin('GET', `/api/admin/blog/posts/${ids.untagged}`)).data.tags, []);
    const one = await call(ctx.app, 'GET', '/api/blog/posts/ai-news');
    assert.deepEqual(one.data.tags, ['ai', 'news']);
    const list = await call(ctx.app, 'GET', '/api/blog/posts');
    assert.deepEqual(Object.fromEntries(list.data.posts.map((p: Json) => [p.slug, p.tags])), {
      'deep-dive': ['deep learning', 'ai'],
      untagged: [],
      'ai-safety-notes': ['ai-safety'],
      'ai-news': ['ai', 'news'],
    });
    const adminList = await admin('GET', '/api/admin/blog/posts');
    const draft = adminList.data.posts.find((p: Json) => p.slug === 'ai-draft');
    assert.deepEqual(draft.tags, ['ai']);
  });

  test('?tag= keeps posts carrying exactly that tag, case-insensitively, and meta echoes it', async () => {
    const ai = await call(ctx.app, 'GET', '/api/blog/posts?tag=AI');
    assert.equal(ai.statusCode, 200, ai.body);
    // Not `ai-safety` (no partial match), not the draft.
    assert.deepEqual(slugs(ai), ['deep-dive', 'ai-news']);
    assert.equal(ai.data.meta.total, 2);
    assert.equal(ai.data.meta.tag, 'AI');
    assert.deepEqual(slugs(await call(ctx.app, 'GET', '/api/blog/posts?tag=deep%20learning')), ['deep-dive']);
    assert.deepEqual(slugs(await call(ctx.app, 'GET', '/api/blog/posts?tag=Deep%20%20LEARNING')), [
      'deep-dive',
    ]);
    assert.deepEqual(slugs(await call(ctx.app, 'GET', '/api/blog/posts?tag=nothing')), []);
    const combined = await call(ctx.app, 'GET', '/api/blog/posts?tag=ai&end_date=2026-11-12&search=about');
    assert.deepEqual(slugs(combined), ['ai-news']);
    assert.equal(combined.data.meta.tag, 'ai');
    const paged = await call(ctx.app, 'GET', '/api/blog/posts?tag=ai&limit=1&offset=1');
    assert.deepEqual(slugs(paged), ['ai-news']);
    assert.equal(paged.data.meta.total, 2);
    assert.equal((await call(ctx.app, 'GET', '/api/blog/posts')).data.meta.tag, null);
  });

  test('a bad tag filter is a 400 naming query.tag', async () => {
    for (const query of [`tag=${'x'.repeat(41)}`, 'tag=', 'tag=%20%20']) {
      const res = await call(ctx.app, 'GET', `/api/blog/posts?${query}`);
      assertProblem(res, 400);
      assert.equal(res.data.errors[0].path, 'query.tag', query);
    }
    assertProblem(await call(ctx.app, 'GET', '/api/blog/posts?tags=ai'), 400);
  });

  test('update replaces the tags sent, keeps them when left out, and [] clears them', async () => {
    const url = `/api/admin/blog/posts/${ids['ai-news']}`;
    const kept = await admin('PUT', url, { title: 'AI news, retitled' });
    assert.deepEqual(kept.data.tags, ['ai', 'news']);
    const replaced = await admin('PUT', url, { tags: ['Briefing', 'news', 'NEWS'] });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual(replaced.data.tags, ['briefing', 'news']);
    assert.deepEqual(slugs(await call(ctx.app, 'GET', '/api/blog/posts?tag=ai')), ['deep-dive']);
    assert.deepEqual(slugs(await call(ctx.app, 'GET', '/api/blog/posts?tag=briefing')), ['ai-news']);
    const cleared = await admin('PUT', url, { tags: [] });
    assert.deepEqual(cleared.data.tags, []);
    assert.deepEqual((await call(ctx.app, 'GET', '/api/blog/posts/ai-news')).data.tags, []);
  });

  test('invalid tags are 400s naming the field, and nothing is stored', async () => {
    const base = { title: 'Bad tags', content: 'x', status: 'published' };
    const cases: [unknown, RegExp][] = [
      ['ai', /^body\.tags$/],
      [[5], /^body\.tags\[0\]$/],
      [[''], /^body\.tags\[0\]$/],
      [['ok', '   '], /^body\.tags\[1\]$/],
      [['x'.repeat(41)], /^body\.tags\[0\]$/],
      // NFKC turns the ligature into two letters: 39 + 2 = 41 characters once normalised.
      [[`${'x'.repeat(39)}\uFB00`], /^body\.tags\[0\]$/],
      [Array.from({ length: 11 }, (_, i) => `t${i}`), /^body\.tags$/],
      [null, /^body\.tags$/],
    ];
    for (const [tags, field] of cases) {
      const res = await admin('POST', '/api/admin/blog/posts', { ...base, tags });
      assertProblem(res, 400);
      assert.match(res.data.errors[0].path, field, JSON.stringify(tags));
      const put = await admin('PUT', `/api/admin/blog/posts/${ids.untagged}`, { tags });
      assertProblem(put, 400);
    }
    assert.equal(
      (await call(ctx.app, 'GET', '/api/blog/posts/bad-tags')).statusCode,
      404,
      'no post was created',
    );
    assert.deepEqual((await admin('GET', `/api/admin/blog/posts/${ids.untagged}`)).data.tags, []);
    // Ten tags of 40 characters are fine.
    const most = Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(40, 'x'));
    const ok = await admin('POST', '/api/admin/blog/posts', { ...base, title: 'Most tags', tags: most });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.deepEqual(ok.data.tags, most);
  });

  test('deleting a post deletes its tags', async () => {
    const res = await admin('POST', '/api/admin/blog/posts', {
      title: 'Short lived',
      content: 'x',
      tags: ['ephemeral'],
    });
    assert.equal((await admin('DELETE', `/api/admin/blog/posts/${res.data.id}`)).statusCode, 204);
    const left = await ctx.app.services.db
      .selectFrom('blog_post_tags')
      .select('tag')
      .where('post_id', '=', res.data.id)
      .execute();
    assert.deepEqual(left, []);
  });

  test('the importer reads tags from front matter and a re-import replaces them', async () => {
    const dir = path.join(ctx.database.dataDir, 'tagged-posts');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'tagged.md');
    fs.writeFileSync(
      file,
      '---\ntitle: Tagged import\npublished_at: 2026-11-14\ntags: [Imports, "Markdown"]\n---\nBody.\n',
    );
    const first = await importPosts(ctx.app.services.blog, dir);
    assert.deepEqual(first.failed, []);
    assert.deepEqual((await call(ctx.app, 'GET', '/api/blog/posts/tagged-import')).data.tags, [
      'imports',
      'markdown',
    ]);
    assert.deepEqual(slugs(await call(ctx.app, 'GET', '/api/blog/posts?tag=MARKDOWN')), ['tagged-import']);

    fs.writeFileSync(
      file,
      '---\ntitle: Tagged import\npublished_at: 2026-11-14\ntags:\n  - cli\n---\nBody.\n',
    );
    assert.equal((await importPosts(ctx.app.services.blog, dir)).updated, 1);
    assert.deepEqual((await call(ctx.app, 'GET', '/api/blog/posts/tagged-import')).data.tags, ['cli']);
    // The file is the whole truth: no tags line, no tags.
    fs.writeFileSync(file, '---\ntitle: Tagged import\npublished_at: 2026-11-14\n---\nBody.\n');
    await importPosts(ctx.app.services.blog, dir);
    assert.deepEqual((await call(ctx.app, 'GET', '/api/blog/posts/tagged-import')).data.tags, []);

    fs.writeFileSync(file, `---\ntitle: Tagged import\ntags: [${'y'.repeat(41)}]\n---\nBody.\n`);
    const bad = await importPosts(ctx.app.services.blog, dir);
    assert.equal(bad.failed.length, 1);
    assert.match(bad.failed[0]!.reason, /tags/);
  });

  test('the OpenAPI document describes the tag filter and the tags field', async () => {
    const doc = await call(ctx.app, 'GET', '/api/openapi.json');
    const list = doc.data.paths['/api/blog/posts'].get;
    const tag = list.parameters.find((p: Json) => p.name === 'tag' && p.in === 'query');
    assert.ok(tag, 'tag is a query parameter');
    assert.equal(tag.schema.maxLength, 40);
    const schemas = doc.data.components.schemas;
    assert.equal(schemas.BlogPost.properties.tags.type, 'array');
    assert.ok(schemas.AdminBlogPost.properties.tags);
    const body = doc.data.paths['/api/admin/blog/posts'].post.requestBody.content['application/json'].schema;
    assert.equal(body.properties.tags.maxItems, 10);
    assert.equal(body.properties.tags.items.maxLength, 40);
  });
});

describe('blog text helpers', () => {
  test('reading time is ceil(words / 200), at least 1', () => {
    assert.equal(readingTimeMinutes(''), 1);
    assert.equal(readingTimeMinutes(Array(200).fill('w').join(' ')), 1);
    assert.equal(readingTimeMinutes(Array(201).fill('w').join(' ')), 2);
    assert.equal(
      readingTimeMinutes(`## Title\n\n${Array(397).fill('w').join(' ')} [link](https://x.y/z)`),
      2,
    );
  });

  test('slugs are lowercase ASCII with hyphens', () => {
    assert.equal(slugify('  Hello, Wörld!  '), 'hello-world');
    assert.equal(slugify('Straße --- 42'), 'strasse-42');
    assert.equal(slugify('日本'), '');
  });

  test('excerpts drop Markdown and cut at a word boundary', () => {
    assert.equal(
      stripMarkdown('# T\n\nSome **bold** and [a link](http://x) `code`.'),
      'T\n\nSome bold and a link code.',
    );
    const long = 'alpha '.repeat(60);
    const excerpt = deriveExcerpt(long);
    assert.ok(excerpt.length <= 201);
    assert.match(excerpt, /^(alpha )+alpha…$/);
  });
});
