// Query parameters that upstream clients spell differently: a fixed table of aliases (never a loosening),
// and comma lists that may also arrive as repeated parameters.
import { badRequest } from './errors.ts';

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
export function pageOffset(query: { page?: number; offset?: number; limit: number }): number | undefined {
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
