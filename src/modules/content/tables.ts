// Kysely table types of the content module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

export interface BlogPostsTable {
  id: Generated<number>;
  title: string;
  slug: string;
  /** As given; null when the excerpt is derived from the content. */
  excerpt: string | null;
  /** Derived from the content at every write (used when `excerpt` is null). */
  derived_excerpt: string;
  cover_image: string | null;
  author_name: string | null;
  category: string | null;
  /** Lowercased category, for the case-insensitive filter. */
  category_key: string | null;
  /** Stored intent: `draft` or `published` (a published post with a future published_at is scheduled). */
  status: string;
  published_at: number | null;
  content: string;
  reading_time_minutes: number;
  /** Lowercased (NFKC) title, written excerpt (empty when derived) and Markdown-free content: search runs on these. */
  search_title: string;
  search_excerpt: string;
  search_content: string;
  created_at: number;
  updated_at: number;
}

/** A post's tags, one row each (see migration 0012 for why a child table). */
export interface BlogPostTagsTable {
  post_id: number;
  /** Normalised: NFKC, lower case, whitespace collapsed; the public `tag` filter compares with `=`. */
  tag: string;
  /** Order the tags were given in, from 0. */
  position: number;
}

/** One row per configured release feed: its cached entries (JSON) and its health. */
export interface ReleaseFeedsTable {
  name: string;
  url: string;
  entries: string;
  etag: string | null;
  modified: string | null;
  last_attempt_at: number | null;
  last_success_at: number | null;
  last_error: string | null;
  consecutive_failures: number;
  next_attempt_at: number;
}

export interface StatusChecksTable {
  id: Generated<number>;
  component: string;
  status: string;
  detail: string | null;
  latency_ms: number | null;
  checked_at: number;
}

export interface ContentTables {
  status_checks: StatusChecksTable;
  blog_posts: BlogPostsTable;
  blog_post_tags: BlogPostTagsTable;
  release_feeds: ReleaseFeedsTable;
}
