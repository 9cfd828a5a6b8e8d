// SQL for blog posts. Search compares lowercased copies stored beside the text (search_*), with LIKE on both
// databases, and ranks in SQL: the same matches and the same order on SQLite and PostgreSQL.

import {
  type Expression,
  type Insertable,
  type Selectable,
  type SqlBool,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { Database, DB, Executor } from '../../../database.ts';
import { likeEscape } from '../../../platform/db/like.ts';
import type { BlogPostsTable } from '../tables.ts';

export type PostRow = Selectable<BlogPostsTable>;
export type NewPost = Insertable<BlogPostsTable>;
export type PostUpdate = Updateable<BlogPostsTable>;

interface PublicFilter {
  now: number;
  /** Lowercased terms; each must match title, excerpt or content. */
  terms: string[];
  categoryKey: string | null;
  /** A normalised tag the post must carry. */
  tag: string | null;
  from: number | null;
  /** Exclusive. */
  to: number | null;
  /** Applies to the whole ordering: relevance (when searching), then published_at, then id. */
  order: 'desc' | 'asc';
  limit: number;
  offset: number;
}

// Terms are lowercased already (searchKey), as are the search_* columns; `%` and `_` in a term are literal.
const like = (column: string, term: string) =>
  sql<SqlBool>`${sql.ref(column)} like ${`%${likeEscape(term)}%`} escape '\\'`;

/** Columns of list views: everything but the content. */
const LIST_COLUMNS = [
  'id',
  'title',
  'slug',
  'excerpt',
  'derived_excerpt',
  'cover_image',
  'author_name',
  'category',
  'status',
  'published_at',
  'reading_time_minutes',
  'created_at',
  'updated_at',
] as const;

export type PostListRow = Pick<PostRow, (typeof LIST_COLUMNS)[number]>;

export class BlogStore {
  constructor(private readonly db: DB) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The post and its (normalised) tags, in one transaction. */
  async insert(row: NewPost, tags: string[]): Promise<PostRow> {
    return this.transaction(async (trx) => {
      const post = await trx.insertInto('blog_posts').values(row).returningAll().executeTakeFirstOrThrow();
      await this.writeTags(post.id, tags, trx);
      return post;
    });
  }

  /** `tags` undefined keeps the stored ones; an array replaces them. */
  async update(id: number, changes: PostUpdate, tags?: string[]): Promise<PostRow | undefined> {
    return this.transaction(async (trx) => {
      const post = await trx
        .updateTable('blog_posts')
        .set(changes)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (post && tags !== undefined) {
        await trx.deleteFrom('blog_post_tags').where('post_id', '=', id).execute();
        await this.writeTags(id, tags, trx);
      }
      return post;
    });
  }

  private async writeTags(postId: number, tags: string[], executor: Executor): Promise<void> {
    if (tags.length === 0) return;
    await executor
      .insertInto('blog_post_tags')
      .values(tags.map((tag, position) => ({ post_id: postId, tag, position })))
      .execute();
  }

  /** Tags by post id, in the order given; posts without tags get none. */
  async tagsOf(postIds: number[]): Promise<Map<number, string[]>> {
    const byPost = new Map<number, string[]>();
    if (postIds.length === 0) return byPost;
    const rows = await this.db
      .selectFrom('blog_post_tags')
      .select(['post_id', 'tag'])
      .where('post_id', 'in', postIds)
      .orderBy('post_id')
      .orderBy('position')
      .execute();
    for (const row of rows) {
      const id = Number(row.post_id);
      const list = byPost.get(id);
      if (list) list.push(row.tag);
      else byPost.set(id, [row.tag]);
    }
    return byPost;
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('blog_posts').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  byId(id: number): Promise<PostRow | undefined> {
    return this.db.selectFrom('blog_posts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  bySlug(slug: string): Promise<PostRow | undefined> {
    return this.db.selectFrom('blog_posts').selectAll().where('slug', '=', slug).executeTakeFirst();
  }

  async slugTaken(slug: string, exceptId?: number): Promise<boolean> {
    let query = this.db.selectFrom('blog_posts').select('id').where('slug', '=', slug);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** Published, due posts matching the filter: newest first, or ranked when there are search terms. */
  async publicPage(filter: PublicFilter): Promise<{ rows: PostListRow[]; total: number }> {
    const base = this.db
      .selectFrom('blog_posts')
      .where('status', '=', 'published')
      .where('published_at', '<=', filter.now)
      .$if(filter.categoryKey !== null, (q) => q.where('category_key', '=', filter.categoryKey))
      .$if(filter.tag !== null, (q) =>
        q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('blog_post_tags')
              .select('blog_post_tags.post_id')
              .whereRef('blog_post_tags.post_id', '=', 'blog_posts.id')
              .where('blog_post_tags.tag', '=', filter.tag!),
          ),
        ),
      )
      .$if(filter.from !== null, (q) => q.where('published_at', '>=', filter.from))
      .$if(filter.to !== null, (q) => q.where('published_at', '<', filter.to))
      .$if(filter.terms.length > 0, (q) =>
        q.where((eb) =>
          eb.and(
            filter.terms.map((term) =>
              eb.or([like('search_title', term), like('search_excerpt', term), like('search_content', term)]),
            ),
          ),
        ),
      );
    const counted = await base
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    let page = base.select([...LIST_COLUMNS]);
    if (filter.terms.length > 0) {
      const score = filter.terms
        .flatMap((term) => [
          sql<number>`case when ${like('search_title', term)} then 3 else 0 end`,
          sql<number>`case when ${like('search_excerpt', term)} then 2 else 0 end`,
          sql<number>`case when ${like('search_content', term)} then 1 else 0 end`,
        ])
        .reduce<Expression<number>>((acc, part) => sql<number>`${acc} + ${part}`, sql<number>`0`);
      page = page.orderBy(score, filter.order);
    }
    const rows = await page
      .orderBy('published_at', filter.order)
      .orderBy('id', filter.order)
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return { rows, total: Number(counted.n) };
  }

  /** Every post for operators; `status` is the shown status (scheduled = published and not yet due). */
  async adminPage(filter: {
    now: number;
    status: 'draft' | 'scheduled' | 'published' | null;
    limit: number;
    offset: number;
  }): Promise<{ rows: PostListRow[]; total: number }> {
    const base = this.db
      .selectFrom('blog_posts')
      .$if(filter.status === 'draft', (q) => q.where('status', '=', 'draft'))
      .$if(filter.status === 'scheduled', (q) =>
        q.where('status', '=', 'published').where('published_at', '>', filter.now),
      )
      .$if(filter.status === 'published', (q) =>
        q.where('status', '=', 'published').where('published_at', '<=', filter.now),
      );
    const counted = await base
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    // Drafts (no date) first, then newest first.
    const rows = await base
      .select([...LIST_COLUMNS])
      .orderBy(sql`case when published_at is null then 0 else 1 end`)
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return { rows, total: Number(counted.n) };
  }
}
