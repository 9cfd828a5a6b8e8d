// Blog posts: drafts, scheduled and published posts, public listing with ranked search, operator CRUD.
import { type Clock, isoString } from '../../../platform/clock.ts';
import { dayRange } from '../../../platform/dates.ts';
import { badRequest, conflict, notFound } from '../../../platform/errors.ts';
import { MAX_TAG_LENGTH, MAX_TAGS, type PostStatus } from './schemas.ts';
import type { BlogStore, NewPost, PostListRow, PostRow, PostUpdate } from './store.ts';
import {
  deriveExcerpt,
  readingTimeMinutes,
  SLUG_PATTERN,
  searchKey,
  slugify,
  stripMarkdown,
} from './text.ts';

export interface PostInput {
  title?: string;
  content?: string;
  slug?: string;
  excerpt?: string | null;
  cover_image?: string | null;
  author_name?: string | null;
  category?: string | null;
  published_at?: string | null;
  status?: PostStatus;
  tags?: string[];
}

interface PublicPostView {
  id: number;
  title: string;
  slug: string;
  excerpt: string | null;
  cover_image: string | null;
  published_at: string;
  author_name: string | null;
  reading_time_minutes: number;
  content: string | null;
  tags: string[];
}

interface AdminPostView extends Omit<PublicPostView, 'published_at'> {
  published_at: string | null;
  status: PostStatus;
  category: string | null;
  created_at: string;
  updated_at: string;
}

interface BlogListParams {
  search?: string;
  category?: string;
  tag?: string;
  start_date?: string;
  end_date?: string;
  order?: 'desc' | 'asc';
  limit?: number;
  offset?: number;
}

const MAX_TERMS = 10;
const SLUG_RE = new RegExp(SLUG_PATTERN);

function shownStatus(row: Pick<PostRow, 'status' | 'published_at'>, now: number): PostStatus {
  if (row.status === 'draft' || row.published_at === null) return 'draft';
  return row.published_at > now ? 'scheduled' : 'published';
}

function publicView(
  row: PostListRow & { content?: string },
  withContent: boolean,
  tags: string[],
): PublicPostView {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt ?? (row.derived_excerpt || null),
    cover_image: row.cover_image,
    published_at: isoString(row.published_at)!,
    author_name: row.author_name,
    reading_time_minutes: row.reading_time_minutes,
    content: withContent ? (row.content ?? null) : null,
    tags,
  };
}

function adminView(
  row: PostListRow & { content?: string },
  now: number,
  withContent: boolean,
  tags: string[],
): AdminPostView {
  return {
    ...publicView(row, withContent, tags),
    published_at: isoString(row.published_at),
    status: shownStatus(row, now),
    category: row.category,
    created_at: isoString(row.created_at)!,
    updated_at: isoString(row.updated_at)!,
  };
}

/** Search words: lowercased, split on whitespace, quotes dropped, at most 10. */
function searchTerms(search: string | undefined): string[] {
  if (search === undefined) return [];
  const terms = [...new Set(searchKey(search).replace(/["“”]/g, ' ').split(' ').filter(Boolean))];
  return terms.slice(0, MAX_TERMS);
}

/** The form a tag is stored and matched in: NFKC, lower case, whitespace collapsed. */
function tagKey(tag: string, field: string): string {
  const key = searchKey(tag);
  if (key === '') throw badRequest(`${field} must not be blank.`, field);
  // NFKC can lengthen a string (ligatures, some symbols), so the schema's check is not enough.
  if (key.length > MAX_TAG_LENGTH) {
    throw badRequest(`${field} must be at most ${MAX_TAG_LENGTH} characters once normalised.`, field);
  }
  return key;
}

/** Normalised tags, duplicates (after normalisation) dropped, first occurrence kept. */
function normaliseTags(tags: string[]): string[] {
  const keys = tags.map((tag, i) => tagKey(tag, `tags[${i}]`));
  const unique = [...new Set(keys)];
  if (unique.length > MAX_TAGS) throw badRequest(`tags must hold at most ${MAX_TAGS} tags.`, 'tags');
  return unique;
}

function httpUrlOrNull(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`${field} must be an absolute http(s) URL.`, field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest(`${field} must be an http(s) URL.`, field);
  }
  return value;
}

/** Blank strings mean "none" for optional text. */
function optionalText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

export class BlogService {
  constructor(
    private readonly store: BlogStore,
    private readonly clock: Clock,
  ) {}

  async listPublic(params: BlogListParams) {
    const now = this.clock.now();
    const limit = params.limit ?? 20;
    const offset = params.offset ?? 0;
    const order = params.order ?? 'desc';
    // Posts may be scheduled ahead and the archive is not capped; a bound left out leaves that side open.
    const range =
      params.start_date !== undefined || params.end_date !== undefined
        ? dayRange(params.start_date ?? params.end_date, params.end_date ?? params.start_date, now, {
            allowFuture: true,
            maxDays: Number.POSITIVE_INFINITY,
          })
        : null;
    const from = params.start_date !== undefined ? range!.startMs : null;
    const to = params.end_date !== undefined ? range!.endMs : null;
    const terms = searchTerms(params.search);
    const category = optionalText(params.category);
    const tag = params.tag === undefined ? null : tagKey(params.tag, 'tag');
    const { rows, total } = await this.store.publicPage({
      now,
      terms,
      categoryKey: category === null ? null : searchKey(category),
      tag,
      from,
      to,
      order,
      limit,
      offset,
    });
    const custom = params.start_date !== undefined || params.end_date !== undefined;
    const tags = await this.store.tagsOf(rows.map((row) => row.id));
    return {
      posts: rows.map((row) => publicView(row, false, tags.get(row.id) ?? [])),
      meta: {
        total,
        limit,
        offset,
        period: custom ? 'custom' : null,
        sort_by: terms.length > 0 ? 'relevance' : 'published_at',
        order,
        search: params.search ?? null,
        category: params.category ?? null,
        tag: params.tag ?? null,
        start_date: params.start_date ?? null,
        end_date: params.end_date ?? null,
      },
    };
  }

  private async tagsOfOne(id: number): Promise<string[]> {
    return (await this.store.tagsOf([id])).get(id) ?? [];
  }

  /** A published, due post; drafts and scheduled posts are not found. */
  async getPublic(slug: string): Promise<PublicPostView> {
    const row = SLUG_RE.test(slug) ? await this.store.bySlug(slug) : undefined;
    if (!row || shownStatus(row, this.clock.now()) !== 'published') {
      throw notFound(`No published post has the slug ${JSON.stringify(slug)}.`);
    }
    return publicView(row, true, await this.tagsOfOne(row.id));
  }

  async listAdmin(params: { status?: PostStatus; limit?: number; offset?: number }) {
    const now = this.clock.now();
    const limit = params.limit ?? 20;
    const offset = params.offset ?? 0;
    const { rows, total } = await this.store.adminPage({ now, status: params.status ?? null, limit, offset });
    const tags = await this.store.tagsOf(rows.map((row) => row.id));
    return {
      posts: rows.map((row) => adminView(row, now, false, tags.get(row.id) ?? [])),
      meta: {
        total,
        limit,
        offset,
        period: null,
        sort_by: 'published_at',
        order: 'desc',
        search: null,
        category: null,
        start_date: null,
        end_date: null,
      },
    };
  }

  async getAdmin(id: number): Promise<AdminPostView> {
    const row = await this.store.byId(id);
    if (!row) throw notFound(`No blog post has the id ${id}.`);
    return adminView(row, this.clock.now(), true, await this.tagsOfOne(id));
  }

  async bySlug(slug: string): Promise<AdminPostView | null> {
    const row = await this.store.bySlug(slug);
    return row ? adminView(row, this.clock.now(), true, await this.tagsOfOne(row.id)) : null;
  }

  async create(input: PostInput & { title: string; content: string }): Promise<AdminPostView> {
    const now = this.clock.now();
    const slug = input.slug ?? slugify(input.title);
    if (slug === '') {
      throw badRequest(
        'No slug can be made from this title (it has no ASCII letters or digits); send a slug.',
        'slug',
      );
    }
    const publication = this.publication(input, null, now);
    const tags = normaliseTags(input.tags ?? []);
    const row: NewPost = {
      ...this.derived({
        title: input.title.trim(),
        content: input.content,
        excerpt: optionalText(input.excerpt),
      }),
      slug,
      cover_image: httpUrlOrNull(optionalText(input.cover_image), 'cover_image'),
      author_name: optionalText(input.author_name),
      ...this.categoryFields(input.category),
      ...publication,
      created_at: now,
      updated_at: now,
    };
    if (row.title === '') throw badRequest('title must not be blank.', 'title');
    if (await this.store.slugTaken(slug)) throw this.slugClash(slug);
    try {
      return adminView(await this.store.insert(row, tags), now, true, tags);
    } catch (error) {
      if (/unique|duplicate/i.test((error as Error).message)) throw this.slugClash(slug);
      throw error;
    }
  }

  async update(id: number, input: PostInput): Promise<AdminPostView> {
    const now = this.clock.now();
    const current = await this.store.byId(id);
    if (!current) throw notFound(`No blog post has the id ${id}.`);
    const changes: PostUpdate = { updated_at: now };
    if (input.title !== undefined || input.content !== undefined || input.excerpt !== undefined) {
      const title = input.title !== undefined ? input.title.trim() : current.title;
      if (title === '') throw badRequest('title must not be blank.', 'title');
      Object.assign(
        changes,
        this.derived({
          title,
          content: input.content ?? current.content,
          excerpt: input.excerpt !== undefined ? optionalText(input.excerpt) : current.excerpt,
        }),
      );
    }
    if (input.slug !== undefined && input.slug !== current.slug) {
      if (await this.store.slugTaken(input.slug, id)) throw this.slugClash(input.slug);
      changes.slug = input.slug;
    }
    if (input.cover_image !== undefined) {
      changes.cover_image = httpUrlOrNull(optionalText(input.cover_image), 'cover_image');
    }
    if (input.author_name !== undefined) changes.author_name = optionalText(input.author_name);
    if (input.category !== undefined) Object.assign(changes, this.categoryFields(input.category));
    if (input.status !== undefined || input.published_at !== undefined) {
      Object.assign(changes, this.publication(input, current, now));
    }
    const tags = input.tags === undefined ? undefined : normaliseTags(input.tags);
    try {
      const row = await this.store.update(id, changes, tags);
      if (!row) throw notFound(`No blog post has the id ${id}.`);
      return adminView(row, now, true, tags ?? (await this.tagsOfOne(id)));
    } catch (error) {
      if (/unique|duplicate/i.test((error as Error).message)) throw this.slugClash(changes.slug ?? '');
      throw error;
    }
  }

  async delete(id: number): Promise<void> {
    if (!(await this.store.delete(id))) throw notFound(`No blog post has the id ${id}.`);
  }

  private slugClash(slug: string) {
    return conflict(`Another post already has the slug ${JSON.stringify(slug)}.`, 'slug_taken');
  }

  private categoryFields(category: string | null | undefined) {
    const value = optionalText(category);
    return { category: value, category_key: value === null ? null : searchKey(value) };
  }

  private derived(post: { title: string; content: string; excerpt: string | null }) {
    const derivedExcerpt = deriveExcerpt(post.content);
    return {
      title: post.title,
      content: post.content,
      excerpt: post.excerpt,
      derived_excerpt: derivedExcerpt,
      reading_time_minutes: readingTimeMinutes(post.content),
      search_title: searchKey(post.title),
      // A derived excerpt is the content's start: counting it again would rank it like a written one.
      search_excerpt: searchKey(post.excerpt ?? ''),
      search_content: searchKey(stripMarkdown(post.content)),
    };
  }

  /**
   * Stored status and published_at from the input (and the current post on update):
   * draft → no date; scheduled → a future date is required; published → the date given, else the current
   * one, else now. With no status, a date publishes (or schedules) and null makes a draft.
   */
  private publication(
    input: PostInput,
    current: PostRow | null,
    now: number,
  ): { status: 'draft' | 'published'; published_at: number | null } {
    const given =
      input.published_at === undefined || input.published_at === null
        ? input.published_at
        : Date.parse(input.published_at);
    if (typeof given === 'number' && !Number.isFinite(given)) {
      throw badRequest('published_at must be an ISO 8601 date-time.', 'published_at');
    }
    const status =
      input.status ??
      (given === null
        ? 'draft'
        : given !== undefined
          ? 'published'
          : current
            ? shownStatus(current, now)
            : 'draft');
    if (status === 'draft') {
      if (typeof given === 'number') {
        throw badRequest('A draft has no published_at; send null or leave it out.', 'published_at');
      }
      return { status: 'draft', published_at: null };
    }
    const existing = current?.status === 'published' ? current.published_at : null;
    if (given === null) {
      throw badRequest(`A ${status} post needs a published_at (null makes a draft).`, 'published_at');
    }
    // `published` without a date: keep the date it was published at, else now (a scheduled post goes out now).
    const at =
      given ?? (status === 'published' ? (existing !== null && existing <= now ? existing : now) : existing);
    if (status === 'scheduled' && (at === undefined || at === null || at <= now)) {
      throw badRequest('A scheduled post needs a published_at in the future.', 'published_at');
    }
    return { status: 'published', published_at: at! };
  }
}
