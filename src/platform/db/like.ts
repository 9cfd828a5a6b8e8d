// LIKE patterns that match text literally, on SQLite and PostgreSQL alike (escape character `\`).

/** `text` with LIKE's wildcards and the escape character escaped. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%text%` (lower-cased) for a case-insensitive "contains" with `lower(column) like … escape '\'`. */
export function containsPattern(text: string): string {
  return `%${likeEscape(text.toLowerCase())}%`;
}
