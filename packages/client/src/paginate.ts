// Async iteration over every item of a paginated list. Crestwatch's lists page with `limit` and `offset` and
// answer one of two shapes: an envelope with one array and `meta.total` (`{trends, total, meta}`,
// `{events, meta}`, …), or a bare array (`GET /api/org/invites`), which ends with a short or empty page.
import { errorFromResponse } from './errors.ts';
import type { paths } from './schema.js';

type GetOperation<P> = P extends keyof paths ? (paths[P] extends { get: infer Op } ? Op : never) : never;
type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type PathParamsOf<Op> = Op extends { parameters: { path?: infer X } } ? X : never;
type OkBody<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type Listed<B> = B extends readonly (infer I)[]
  ? I
  : { [K in Exclude<keyof B, 'meta'>]: NonNullable<B[K]> extends readonly (infer I)[] ? I : never }[Exclude<
      keyof B,
      'meta'
    >];

/** The GET paths that page with `offset`: the ones `paginate` accepts. */
export type PaginatedPath = {
  [P in keyof paths]: [QueryOf<GetOperation<P>>] extends [never]
    ? never
    : 'offset' extends keyof QueryOf<GetOperation<P>>
      ? P
      : never;
}[keyof paths];

/** The type of one item of the list at `P` (a TrendItem for `/api/trends`). */
export type PageItem<P extends PaginatedPath> = Listed<OkBody<GetOperation<P>>>;

export interface PaginateOptions<P extends PaginatedPath> {
  /**
   * The list's query parameters. `limit` is the page size (the route's default when left out); `offset` is
   * where to start (default 0); upstream's `page` is not accepted, since pages are counted here.
   */
  query?: Omit<QueryOf<GetOperation<P>>, 'page'>;
  path?: PathParamsOf<GetOperation<P>>;
  signal?: AbortSignal;
}

/** One page as read from an answer body. */
interface Page {
  items: unknown[];
  /** Items in the whole list, when the answer says. */
  total: number | undefined;
  /** The page size the server applied, when the answer says. */
  limit: number | undefined;
}

const numberOrUndefined = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Reads a list answer of either shape; throws when the body is neither (a path that is not a list). */
export function readPage(body: unknown): Page {
  if (Array.isArray(body)) return { items: body, total: undefined, limit: undefined };
  if (typeof body !== 'object' || body === null)
    throw new TypeError('A list answer must be an object or array.');
  const record = body as Record<string, unknown>;
  const arrays = Object.entries(record).filter(([key, value]) => key !== 'meta' && Array.isArray(value));
  if (arrays.length !== 1) {
    throw new TypeError(`A list answer must hold exactly one array; found ${arrays.length}.`);
  }
  const meta =
    typeof record.meta === 'object' && record.meta !== null ? (record.meta as Record<string, unknown>) : {};
  return {
    items: arrays[0]![1] as unknown[],
    total: numberOrUndefined(meta.total) ?? numberOrUndefined(record.total),
    limit: numberOrUndefined(meta.limit),
  };
}

/**
 * Whether the list goes on after a page of `page.items.length` items that ended at `nextOffset`: not after an
 * empty page, not once `total` is reached, not after a page shorter than the page size.
 */
export function hasMore(page: Page, nextOffset: number, requestedLimit: number | undefined): boolean {
  if (page.items.length === 0) return false;
  if (page.total !== undefined) return nextOffset < page.total;
  const size = requestedLimit ?? page.limit;
  return size === undefined || page.items.length >= size;
}

/** openapi-fetch's GET, as paginate calls it. */
type Get = (
  path: string,
  init: { params: { query: Record<string, unknown>; path?: unknown }; signal?: AbortSignal },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Every item of the list at `path`, page after page; a failed page rejects with a CrestwatchError. */
export async function* paginate<P extends PaginatedPath>(
  get: Get,
  path: P,
  options: PaginateOptions<P> = {},
): AsyncGenerator<PageItem<P>, void, undefined> {
  const query = { ...(options.query as Record<string, unknown> | undefined) };
  const requestedLimit = numberOrUndefined(query.limit);
  let offset = numberOrUndefined(query.offset) ?? 0;
  for (;;) {
    const { data, error, response } = await get(path, {
      params: { query: { ...query, offset }, ...(options.path ? { path: options.path } : {}) },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!response.ok) throw errorFromResponse(response, error);
    const page = readPage(data);
    for (const item of page.items) yield item as PageItem<P>;
    offset += page.items.length;
    if (!hasMore(page, offset, requestedLimit)) return;
  }
}
