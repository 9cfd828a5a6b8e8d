import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../../../src/database.ts';
import { FrontMatterError, parsePostFile } from '../../../src/modules/content/blog/frontmatter.ts';
import { openDatabase } from '../../../src/platform/db/index.ts';
import { TEST_SECRET_KEY } from '../../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';

describe('front matter', () => {
  test('reads plain and quoted values, dates and draft flags', () => {
    const post = parsePostFile(
      [
        '\uFEFF---',
        'title: "Hello: \\"world\\""',
        "excerpt: 'It''s short'",
        '# a comment',
        'category: Product',
        'published_at: 2026-11-01',
        '',
        '---',
        '',
        '# Body',
        '',
        'Text.',
      ].join('\r\n'),
    );
    assert.deepEqual(post, {
      title: 'Hello: "world"',
      excerpt: "It's short",
      category: 'Product',
      published_at: '2026-11-01T00:00:00Z',
      content: '# Body\r\n\r\nText.'.replaceAll('\r\n', '\n'),
    });
    assert.equal(parsePostFile('---\ntitle: T\ndraft: true\n---\nx').status, 'draft');
    assert.equal(parsePostFile('---\ntitle: T\n---\nx').status, 'draft');
    assert.equal(parsePostFile('---\ntitle: T\ndraft: false\n---\nx').status, 'published');
    assert.equal(
      parsePostFile('---\ntitle: T\nstatus: scheduled\npublished_at: 2027-01-01T10:00:00+01:00\n---\nx')
        .status,
      'scheduled',
    );
  });

  test('reads tags as a [flow] list, a comma list or "- item" lines; absent tags stay absent', () => {
    const tagsOf = (lines: string[]) =>
      parsePostFile(['---', 'title: T', ...lines, '---', 'x'].join('\n')).tags;
    assert.deepEqual(tagsOf(["tags: [AI, \"machine, learning\", 'it''s']"]), [
      'AI',
      'machine, learning',
      "it's",
    ]);
    assert.deepEqual(tagsOf(['tags: ai, llms']), ['ai', 'llms']);
    assert.deepEqual(tagsOf(['tags: solo']), ['solo']);
    assert.deepEqual(tagsOf(['tags:', '  - ai', '  - "Deep Learning"', 'category: News']), [
      'ai',
      'Deep Learning',
    ]);
    assert.deepEqual(tagsOf(['tags:', '- unindented', '- too']), ['unindented', 'too']);
    assert.deepEqual(tagsOf(['tags: []']), []);
    assert.deepEqual(tagsOf(['tags:']), []);
    assert.equal(tagsOf([]), undefined);
  });

  test('is strict, naming the line', () => {
    const bad: [string, RegExp][] = [
      ['title: T\n---\nx', /line 1: the file must start/],
      ['---\ntitle: T\nx', /no closing ---/],
      ['---\ntitle: T\nauthor: Ana\n---\nx', /line 3: unknown key "author"/],
      ['---\ntitle: T\ntitle: U\n---\nx', /line 3: "title" is given twice/],
      ['---\ntitle: T\nlabels: [a, b]\n---\nx', /line 3: unknown key "labels"/],
      ['---\ntitle: T\ntags: [a, b\n---\nx', /line 3: tags list has no closing \]/],
      ['---\ntitle: T\ntags: [a, [b]]\n---\nx', /line 3: only plain or quoted/],
      ['---\ntitle: T\ntags: a,,b\n---\nx', /line 3: tags has an empty item/],
      ['---\ntitle: T\ntags:\n  - a\n  -\n---\nx', /line 5: tags has an empty item/],
      ['---\ntitle: T\ntags: a\ntags: b\n---\nx', /line 4: "tags" is given twice/],
      ['---\ntitle: T\ntags: [a]\n  - b\n---\nx', /line 4: expected "key: value"/],
      ['---\ntitle: [a, b]\n---\nx', /line 2: only plain or quoted/],
      ['---\ntitle: T\n  nested: 1\n---\nx', /line 3: expected "key: value"/],
      ['---\ntitle: "T\n---\nx', /line 2: unterminated/],
      ['---\ntitle: T\npublished_at: next week\n---\nx', /line 3: published_at must be/],
      ['---\ntitle: T\npublished_at: 2026-11-01T10:00:00\n---\nx', /line 3: published_at must be/],
      ['---\ntitle: T\ndraft: yes\n---\nx', /line 3: draft must be true or false/],
      ['---\ntitle: T\ndraft: true\nstatus: published\n---\nx', /line 4: status published contradicts/],
      ['---\nslug: s\n---\nx', /needs a title/],
      ['---\ntitle: T\n---\n\n', /no content/],
      ['---\ntitle: T # not a comment\n---\nx', /line 2: quote a value/],
    ];
    for (const [text, message] of bad) {
      assert.throws(
        () => parsePostFile(text),
        (error: Error) => {
          assert.ok(error instanceof FrontMatterError, text);
          assert.match(error.message, message, text);
          return true;
        },
      );
    }
  });
});

describe('crestwatch blog import', () => {
  let database: TestDatabase;
  let dir: string;
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['bin/crestwatch.mjs', ...args], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        DATA_DIR: database.dataDir,
        SECRET_KEY: TEST_SECRET_KEY,
        DATABASE_POOL_SIZE: '2',
        SOURCES: 'none',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });

  before(async () => {
    database = await createTestDatabase();
    dir = path.join(database.dataDir, 'posts');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'a-hello.md'),
      '---\ntitle: Hello there\nauthor_name: Ana\ncategory: News\npublished_at: 2026-11-01T09:00:00Z\n---\n\nFirst **post** body.\n',
    );
    fs.writeFileSync(path.join(dir, 'b-draft.md'), '---\ntitle: Later\nslug: later-on\n---\nNot yet.\n');
    fs.writeFileSync(path.join(dir, 'c-broken.md'), '---\ntitle: Broken\nauthor: Bo\n---\nx\n');
    fs.writeFileSync(
      path.join(dir, 'd-bad-slug.md'),
      '---\ntitle: Bad slug\nslug: Not A Slug\npublished_at: 2026-11-02\n---\nx\n',
    );
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a post');
  });
  after(async () => database.drop());

  test('loads Markdown files, reports each bad file by name, prints a summary; re-running updates', async () => {
    const first = cli('blog', 'import', dir);
    assert.equal(first.status, 1, first.stderr);
    assert.match(first.stdout, /^ {2}c-broken\.md: line 3: unknown key "author"/m);
    assert.match(first.stdout, /^ {2}d-bad-slug\.md: slug must match pattern/m);
    assert.match(first.stdout, /^4 files: created 2, updated 0, failed 2$/m);
    assert.match(first.stderr, /import: done, 4 files/);

    const handle = openDatabase<Database>(database.config);
    try {
      const rows = await handle.db
        .selectFrom('blog_posts')
        .select(['slug', 'status', 'published_at', 'author_name', 'reading_time_minutes'])
        .orderBy('slug')
        .execute();
      assert.deepEqual(
        rows.map((r) => ({ ...r, published_at: r.published_at === null ? null : Number(r.published_at) })),
        [
          {
            slug: 'hello-there',
            status: 'published',
            published_at: Date.parse('2026-11-01T09:00:00Z'),
            author_name: 'Ana',
            reading_time_minutes: 1,
          },
          {
            slug: 'later-on',
            status: 'draft',
            published_at: null,
            author_name: null,
            reading_time_minutes: 1,
          },
        ],
      );
    } finally {
      await handle.close();
    }

    fs.rmSync(path.join(dir, 'c-broken.md'));
    fs.rmSync(path.join(dir, 'd-bad-slug.md'));
    const again = cli('blog', 'import', dir);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^2 files: created 0, updated 2, failed 0$/m);
  });

  test('a missing directory is a usage error', () => {
    const run = cli('blog', 'import', path.join(dir, 'nope'));
    assert.equal(run.status, 2);
    assert.match(run.stderr, /is not a directory/);
  });
});
