// Multi-row statements in row counts that are powers of two: a table's rows written in parts of 512, 256, …, 1
// need only a dozen statement texts, so SQLite prepares each once and its statement cache keeps few of them
// (a prepared 1,000-row upsert holds ~0.8 MB; one text per row count filled the cache with hundreds).

/** `rows` split into parts whose lengths are powers of two, each at most `max` (a power of two), largest first. */
export function powerOfTwoParts<T>(rows: readonly T[], max: number): T[][] {
  const parts: T[][] = [];
  let at = 0;
  while (at < rows.length) {
    let size = max;
    while (size > rows.length - at) size /= 2;
    parts.push(rows.slice(at, at + size));
    at += size;
  }
  return parts;
}
