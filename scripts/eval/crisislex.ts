// The shared CrisisLexT26 posts (../shared/data/crisislex-t26, read at run time, never copied) for the evaluations
// that replay or read them.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const CRISISLEX_DIR = path.resolve(root, '../shared/data/crisislex-t26');

/** RFC 4180 CSV (quoted fields, doubled quotes, newlines inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** A post id's time (the data's README): UTC ms = (id >> 22) + 1288834974657. */
export const postTime = (id: string) => Number((BigInt(id) >> 22n) + 1288834974657n);

/** Every event folder's labelled posts (id, time, text), each id once, in time order. */
export function allCrisisPosts(): { id: string; at: number; text: string }[] {
  const posts: { id: string; at: number; text: string }[] = [];
  const seen = new Set<string>();
  const folders = fs
    .readdirSync(CRISISLEX_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const folder of folders) {
    const file = path.join(CRISISLEX_DIR, folder, `${folder}-tweets_labeled.csv`);
    for (const row of parseCsv(fs.readFileSync(file, 'utf8')).slice(1)) {
      const id = row[0]?.trim() ?? '';
      if (!/^\d+$/.test(id) || (row[1] ?? '').trim() === '' || seen.has(id)) continue;
      seen.add(id);
      posts.push({ id, at: postTime(id), text: row[1]! });
    }
  }
  return posts.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
}
