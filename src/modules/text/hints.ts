/**
 * Category hints carried by a trend's signals: an explicit category (a taxonomy name or slug, or a section alias
 * of data/categories/aliases.tsv such as `tech`), subreddits (data/categories/subreddits.tsv, else read as names,
 * aliases and lexicon terms) and free-form source tags. Resolves them to one taxonomy entry.
 */
import Type from 'typebox';
import { DataFileError, loadTsv } from '../../platform/data-files.ts';
import { strongestCategory } from './lexicon.ts';
import { CATEGORIES, indexOfNameOrSlug, indexOfPath } from './taxonomy.ts';

export interface CategoryHints {
  /** Category proposed by the source or the submitter: a taxonomy name or slug, or a section alias. */
  category?: string | readonly string[] | null;
  /** Subreddit(s) the signals came from: `r/soccer`, `soccer`. */
  subreddit?: string | readonly string[] | null;
  /** Free-form source tags: news sections, feed categories, HN tags. */
  tags?: readonly string[] | null;
}

/** How an alias is looked up: lower case, runs of spaces, `_` and `-` as one space. */
const aliasKey = (value: string) =>
  value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

/**
 * A two-column table (`alias` or `subreddit`, then `category`) of a file laid out as data/categories/ is, as a
 * Map (not an object: a hint such as `constructor` or `__proto__` must find nothing). Each key must be written
 * as it is looked up (`pattern`) and each category must be one of `categories`.
 */
export function readHintTable(
  file: URL,
  column: 'alias' | 'subreddit',
  pattern: string,
  categories: readonly string[],
): ReadonlyMap<string, string> {
  const rows = loadTsv(
    file,
    Type.Object({ [column]: Type.String({ pattern }), category: Type.Enum(categories) }),
  );
  const table = new Map<string, string>();
  for (const row of rows) {
    const key = row[column] as string;
    if (table.has(key)) throw new DataFileError(file, '', `${column} "${key}" is listed twice`);
    table.set(key, row.category as string);
  }
  return table;
}

const names = CATEGORIES.map((c) => c.name);
const dir = new URL('./data/categories/', import.meta.url);
/** Section names, feed categories and other everyday labels a source may send as a category hint. */
const ALIASES = readHintTable(
  new URL('aliases.tsv', dir),
  'alias',
  '^[^\\sA-Z_-]+(?: [^\\sA-Z_-]+)*$',
  names,
);
/** Subreddits whose topic is clear from the name; others are tried as names, aliases and lexicon terms. */
const SUBREDDITS = readHintTable(new URL('subreddits.tsv', dir), 'subreddit', '^[a-z0-9_]+$', names);

function asList(value: string | readonly string[] | null | undefined): readonly string[] {
  if (value === null || value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}

function fromAlias(value: string): number | undefined {
  const alias = ALIASES.get(aliasKey(value));
  return alias === undefined ? undefined : indexOfPath(alias);
}

function fromCategoryHint(value: string): number | undefined {
  return indexOfNameOrSlug(value) ?? fromAlias(value);
}

function fromSubreddit(value: string): number | undefined {
  const name = value.trim().replace(/^\/?r\//i, '');
  if (name === '') return undefined;
  const mapped = SUBREDDITS.get(name.toLowerCase());
  if (mapped !== undefined) return indexOfPath(mapped);
  return indexOfNameOrSlug(name) ?? fromAlias(name) ?? strongestCategory(name);
}

function fromTag(value: string): number | undefined {
  return indexOfNameOrSlug(value) ?? fromAlias(value) ?? strongestCategory(value);
}

/** The winning hint: explicit categories before subreddits before tags; within a kind, the most votes. */
export function resolveHints(hints: CategoryHints): number | undefined {
  const kinds: [readonly string[], (value: string) => number | undefined][] = [
    [asList(hints.category), fromCategoryHint],
    [asList(hints.subreddit), fromSubreddit],
    [asList(hints.tags), fromTag],
  ];
  for (const [values, resolve] of kinds) {
    const votes = new Map<number, number>();
    for (const value of values) {
      if (typeof value !== 'string') continue;
      const index = resolve(value);
      if (index !== undefined) votes.set(index, (votes.get(index) ?? 0) + 1);
    }
    let winner: number | undefined;
    for (const [index, count] of votes) {
      const lead = winner === undefined ? -1 : (votes.get(winner) ?? 0);
      if (count > lead || (count === lead && winner !== undefined && index < winner)) winner = index;
    }
    if (winner !== undefined) return winner;
  }
  return undefined;
}
