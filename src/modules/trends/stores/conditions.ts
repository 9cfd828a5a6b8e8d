// Pieces of SQL the trend list and the custom reports share.
import { type Expression, type SqlBool, sql } from 'kysely';
import { likeEscape } from '../../../platform/db/like.ts';

const CHUNK = 200;

/** `rows` cut into statements of at most `size`. */
export function chunks<T>(rows: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Trends (`t`) whose key holds `key` as whole words. */
export function containsWords(key: string): Expression<SqlBool>[] {
  const k = likeEscape(key);
  return [
    sql<SqlBool>`t.key = ${key}`,
    sql<SqlBool>`t.key like ${`${k} %`} escape '\\'`,
    sql<SqlBool>`t.key like ${`% ${k}`} escape '\\'`,
    sql<SqlBool>`t.key like ${`% ${k} %`} escape '\\'`,
  ];
}
