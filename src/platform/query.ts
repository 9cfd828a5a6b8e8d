// Query parameters that upstream clients spell differently: a fixed table of aliases (never a loosening),
// and comma lists that may also arrive as repeated parameters.
import type { FastifyRequest, RouteOptions } from 'fastify';
import Type from 'typebox';
import { badRequest } from './errors.ts';
import { asArray } from './http.ts';

/**
 * The value of a parameter that may be sent under several names (ours first, then upstream's). Sending more
 * than one with different values is a 400 naming them, never a silent choice.
 */
export function oneParameter<T>(names: Record<string, T | undefined>, part = 'query'): T | undefined {
  let chosen: [string, T] | undefined;
  for (const [name, value] of Object.entries(names)) {
    if (value === undefined) continue;
    if (chosen === undefined) {
      chosen = [name, value];
    } else if (String(chosen[1]) !== String(value)) {
      throw badRequest(
        `${part}.${chosen[0]} and ${part}.${name} are two names for one parameter and disagree ` +
          `(${JSON.stringify(chosen[1])} vs ${JSON.stringify(value)}); send one of them.`,
        `${part}.${name}`,
      );
    }
  }
  return chosen?.[1];
}

/**
 * The offset a request asks for: `offset`, or upstream's 1-based `page` of `limit` items. Both given and
 * pointing at different items → 400.
 */
function pageOffset(query: { page?: number; offset?: number; limit: number }): number | undefined {
  if (query.page === undefined) return query.offset;
  const fromPage = (query.page - 1) * query.limit;
  if (query.offset !== undefined && query.offset !== fromPage) {
    throw badRequest(
      `query.page=${query.page} with limit=${query.limit} starts at offset ${fromPage}, but query.offset is ` +
        `${query.offset}; send one of them.`,
      'query.page',
    );
  }
  return fromPage;
}

/**
 * Items of a comma-separated list parameter, which may also be repeated (`a,b` or `a&x=b`): trimmed, empty
 * items dropped, each checked against `allowed` when given. Undefined when nothing is left.
 */
export function commaList(
  values: string[] | undefined,
  path: string,
  options: { allowed?: readonly string[]; maxItems?: number; maxLength?: number } = {},
): string[] | undefined {
  if (values === undefined) return undefined;
  const items = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  if (items.length === 0) return undefined;
  const maxItems = options.maxItems ?? 20;
  if (items.length > maxItems)
    throw badRequest(`${path} lists ${items.length} items; at most ${maxItems}.`, path);
  const maxLength = options.maxLength ?? 100;
  const long = items.find((item) => item.length > maxLength);
  if (long !== undefined) {
    throw badRequest(
      `${path} has an item longer than ${maxLength} characters ("${long.slice(0, 40)}…").`,
      path,
    );
  }
  const { allowed } = options;
  const unknown = allowed ? items.find((item) => !allowed.includes(item)) : undefined;
  if (allowed && unknown !== undefined) {
    throw badRequest(
      `${path} has "${unknown}", which is not one of ${allowed.map((a) => `"${a}"`).join(', ')}.`,
      path,
    );
  }
  return [...new Set(items)];
}

/** Upstream's names for Crestwatch's query parameters (upstream's → ours), accepted wherever a route takes ours. */
const QUERY_ALIASES: Readonly<Record<string, string>> = {
  sort_dir: 'order',
  q: 'query',
  startDate: 'start_date',
  endDate: 'end_date',
  timeRange: 'period',
};

/** Upstream's 1-based page: accepted wherever a route pages with `limit` and `offset`. */
const PAGE = Type.Integer({
  minimum: 1,
  maximum: 10_000_000,
  description:
    'Upstream’s 1-based page of `limit` items: offset = (page − 1) × limit. With `offset` too, both must ' +
    'point at the same item (400 otherwise).',
});

/**
 * Whether `name` is one of upstream's names for another parameter of this query (`sort_dir` beside `order`):
 * a tool taking the route's arguments offers one name per parameter.
 */
export function isUpstreamAlias(name: string, properties: Record<string, unknown>): boolean {
  const ours = QUERY_ALIASES[name];
  if (ours !== undefined) return ours in properties;
  return name === 'page' && 'offset' in properties && 'limit' in properties;
}

type QuerySchema = { properties?: Record<string, Record<string, unknown>> };
type Query = Record<string, unknown>;

/** The aliases (and `page`) a querystring schema takes, by the parameters it declares. */
function aliasesOf(schema: QuerySchema): { aliases: [string, string][]; page: boolean } {
  const properties = schema.properties ?? {};
  const aliases = Object.entries(QUERY_ALIASES).filter(([, ours]) => ours in properties);
  return { aliases, page: 'offset' in properties && 'limit' in properties };
}

/**
 * Called from onRoute: a route whose query takes `order`, `query`, `start_date`, `end_date`, `period` or
 * `offset`+`limit` also takes upstream's `sort_dir`, `q`, `startDate`, `endDate`, `timeRange` and `page`,
 * validated as ours and documented beside them; the hooks fold them into ours before the handler sees the query.
 */
export function declareQueryAliases(route: RouteOptions): void {
  const schema = route.schema as { querystring?: QuerySchema } | undefined;
  const querystring = schema?.querystring;
  if (!querystring?.properties) return;
  const { aliases, page } = aliasesOf(querystring);
  const added: Record<string, Record<string, unknown>> = {};
  for (const [theirs, ours] of aliases) {
    if (theirs in querystring.properties) continue;
    const { default: _default, description: _description, ...rest } = querystring.properties[ours]!;
    added[theirs] = {
      ...rest,
      description: `Upstream name of \`${ours}\`; both given with different values → 400.`,
    };
  }
  if (page && !('page' in querystring.properties)) added.page = { ...PAGE };
  if (Object.keys(added).length === 0) return;
  const paging: Paging = {
    // A route may cap its page size rather than refuse a larger one (`x-page-size-cap`): a page has that many.
    sizeCap: Number(querystring.properties.limit?.['x-page-size-cap'] ?? Number.POSITIVE_INFINITY),
    maxOffset: Number(querystring.properties.offset?.maximum ?? Number.MAX_SAFE_INTEGER),
  };
  schema!.querystring = { ...querystring, properties: { ...querystring.properties, ...added } };
  route.preValidation = [...asArray(route.preValidation), refuseDisagreeingAliases(aliases)];
  route.preHandler = [foldQueryAliases(aliases, paging), ...asArray(route.preHandler)];
}

interface Paging {
  sizeCap: number;
  maxOffset: number;
}

type Hook = (request: FastifyRequest, reply: unknown, done: (error?: Error) => void) => void;

/** Before validation (the values as sent, before defaults): both names with different values → 400. */
const refuseDisagreeingAliases =
  (aliases: [string, string][]): Hook =>
  (request, _reply, done) => {
    const query = request.query as Query;
    try {
      for (const [theirs, ours] of aliases) {
        if (query[theirs] !== undefined) oneParameter({ [ours]: query[ours], [theirs]: query[theirs] });
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };

/** After validation: upstream's names become ours (overriding a default), `page` becomes `offset`. */
const foldQueryAliases =
  (aliases: [string, string][], paging: Paging): Hook =>
  (request, _reply, done) => {
    const query = request.query as Query;
    for (const [theirs, ours] of aliases) {
      if (query[theirs] === undefined) continue;
      query[ours] = query[theirs];
      delete query[theirs];
    }
    if (query.page !== undefined) {
      const raw = new URLSearchParams(request.url.split('?')[1] ?? '');
      try {
        const size = Math.min((query.limit as number | undefined) ?? 20, paging.sizeCap);
        const offset = pageOffset({
          page: query.page as number,
          // Only an offset the client sent can disagree with its page (not the schema's default of 0).
          offset: raw.has('offset') ? (query.offset as number) : undefined,
          limit: size,
        });
        if (offset !== undefined && offset > paging.maxOffset) {
          throw badRequest(
            `query.page=${query.page} of ${size} items starts at offset ${offset}, past the last one this route ` +
              `pages to (${paging.maxOffset}).`,
            'query.page',
          );
        }
        query.offset = offset;
      } catch (error) {
        done(error as Error);
        return;
      }
      delete query.page;
    }
    done();
  };
