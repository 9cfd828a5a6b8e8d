import type { Kysely } from 'kysely';
import { type Dialect, withId } from '../../../platform/db/index.ts';

// Blog posts and release feed cache (issue 8).
export function content(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('blog_posts')
        .$call((t) => withId(t, dialect))
        .addColumn('title', 'varchar(300)', (c) => c.notNull())
        .addColumn('slug', 'varchar(200)', (c) => c.notNull().unique())
        .addColumn('excerpt', 'text')
        .addColumn('derived_excerpt', 'text', (c) => c.notNull())
        .addColumn('cover_image', 'text')
        .addColumn('author_name', 'varchar(200)')
        .addColumn('category', 'varchar(100)')
        .addColumn('category_key', 'varchar(100)')
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('published_at', 'bigint')
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('reading_time_minutes', 'integer', (c) => c.notNull())
        .addColumn('search_title', 'text', (c) => c.notNull())
        .addColumn('search_excerpt', 'text', (c) => c.notNull())
        .addColumn('search_content', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('blog_posts_published_idx')
        .on('blog_posts')
        .columns(['status', 'published_at', 'id'])
        .execute();
      await db.schema
        .createIndex('blog_posts_category_idx')
        .on('blog_posts')
        .columns(['category_key', 'published_at'])
        .execute();

      await db.schema
        .createTable('release_feeds')
        .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('entries', 'text', (c) => c.notNull())
        .addColumn('etag', 'text')
        .addColumn('modified', 'text')
        .addColumn('last_attempt_at', 'bigint')
        .addColumn('last_success_at', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
