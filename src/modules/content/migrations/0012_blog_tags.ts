import type { Kysely } from 'kysely';
import type { Dialect } from '../../../platform/db/index.ts';

// Blog post tags. A child table rather than a delimited column: an exact, indexed match on both databases
// (no LIKE over a list, no separator a tag could contain), and the cascade drops a deleted post's tags.
export function blogTags(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('blog_post_tags')
        .addColumn('post_id', 'bigint', (c) => c.notNull().references('blog_posts.id').onDelete('cascade'))
        // Normalised (NFKC, lower case, whitespace collapsed), so equality is the case-insensitive match.
        .addColumn('tag', 'varchar(40)', (c) => c.notNull())
        // The order the tags were given in.
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('blog_post_tags_pk', ['post_id', 'tag'])
        .execute();
      await db.schema
        .createIndex('blog_post_tags_tag_idx')
        .on('blog_post_tags')
        .columns(['tag', 'post_id'])
        .execute();
    },
  };
}
