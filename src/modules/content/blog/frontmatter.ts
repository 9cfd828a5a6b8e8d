// A small, strict front-matter reader for `crestwatch blog import`: `---`, one `key: value` per line, `---`,
// then the Markdown body. Values are plain, "double-quoted" (JSON escapes) or 'single-quoted' ('' = ').
// Only `tags` takes a list: `[a, "b c"]`, `a, b`, or `- a` lines below `tags:`. Anything else
// (unknown keys, repeated keys, nested YAML, other lists) is an error naming the line.
import type { PostInput } from './service.ts';

const FRONT_MATTER_KEYS = [
  'title',
  'slug',
  'excerpt',
  'cover_image',
  'author_name',
  'category',
  'published_at',
  'status',
  'draft',
  'tags',
] as const;
type Key = (typeof FRONT_MATTER_KEYS)[number];

export class FrontMatterError extends Error {}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

function scalar(raw: string, line: number): string | null {
  const value = raw.trim();
  if (value === '' || value === '~' || value === 'null') return null;
  if (value.startsWith('"')) {
    if (value.length < 2 || !value.endsWith('"'))
      throw new FrontMatterError(`line ${line}: unterminated "quoted" value`);
    try {
      return JSON.parse(value) as string;
    } catch {
      throw new FrontMatterError(`line ${line}: bad escape in "quoted" value`);
    }
  }
  if (value.startsWith("'")) {
    const inner = value.slice(1, -1);
    if (value.length < 2 || !value.endsWith("'") || inner.replaceAll("''", '').includes("'")) {
      throw new FrontMatterError(`line ${line}: unterminated 'quoted' value`);
    }
    return inner.replaceAll("''", "'");
  }
  if (/^[[{&*!|>%@`]/.test(value)) {
    throw new FrontMatterError(
      `line ${line}: only plain or quoted text values are supported (quote this one)`,
    );
  }
  // ` #` starts a comment in YAML; in a plain value it would silently cut the text.
  if (/\s#/.test(value)) throw new FrontMatterError(`line ${line}: quote a value that contains " #"`);
  return value;
}

/** Splits at commas outside quotes; each piece is then read as a scalar. */
function splitItems(text: string): string[] {
  const items: string[] = [];
  let quote: '"' | "'" | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === '"') {
      if (c === '\\') i++;
      else if (c === '"') quote = null;
    } else if (quote === "'") {
      if (c === "'" && text[i + 1] === "'") i++;
      else if (c === "'") quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === ',') {
      items.push(text.slice(start, i));
      start = i + 1;
    }
  }
  items.push(text.slice(start));
  return items;
}

function listItem(raw: string, line: number): string {
  const value = scalar(raw, line);
  if (value === null) throw new FrontMatterError(`line ${line}: tags has an empty item`);
  return value;
}

/** `tags: [a, b]` or `tags: a, b`; empty → no tags. */
function inlineTags(raw: string, line: number): string[] {
  let text = raw.trim();
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) throw new FrontMatterError(`line ${line}: tags list has no closing ]`);
    text = text.slice(1, -1);
  }
  if (text.trim() === '') return [];
  return splitItems(text).map((item) => listItem(item, line));
}

function dateTime(value: string, line: number): string {
  const iso = DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value;
  if (!DATE_TIME.test(iso) || !Number.isFinite(Date.parse(iso))) {
    throw new FrontMatterError(
      `line ${line}: published_at must be YYYY-MM-DD or an ISO 8601 date-time with a time zone`,
    );
  }
  return iso;
}

/** Splits and reads one file; throws FrontMatterError with a line number. */
export function parsePostFile(text: string): PostInput & { title: string; content: string } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---')
    throw new FrontMatterError('line 1: the file must start with a --- front-matter line');
  const end = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
  if (end < 0) throw new FrontMatterError('the front matter has no closing --- line');
  const values = new Map<Key, { value: string | null; line: number }>();
  let tags: string[] | undefined;
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    const n = i + 1;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/.exec(line);
    if (!match || /^\s/.test(line)) throw new FrontMatterError(`line ${n}: expected "key: value"`);
    const key = match[1]!.toLowerCase() as Key;
    if (!FRONT_MATTER_KEYS.includes(key)) {
      throw new FrontMatterError(
        `line ${n}: unknown key "${match[1]}" (use ${FRONT_MATTER_KEYS.join(', ')})`,
      );
    }
    if (values.has(key)) throw new FrontMatterError(`line ${n}: "${key}" is given twice`);
    if (key === 'tags') {
      values.set(key, { value: null, line: n });
      const inline = match[2] ?? '';
      tags = inlineTags(inline, n);
      // A block list: `- item` lines (indented or not, as YAML allows) right below an empty `tags:`.
      while (inline.trim() === '' && i + 1 < end) {
        const item = /^[ \t]*-(?:[ \t]+(.*)|[ \t]*)$/.exec(lines[i + 1]!);
        if (!item) break;
        i++;
        tags.push(listItem(item[1] ?? '', i + 1));
      }
      continue;
    }
    values.set(key, { value: scalar(match[2] ?? '', n), line: n });
  }
  const get = (key: Key) => values.get(key)?.value ?? null;
  const title = get('title');
  if (title === null) throw new FrontMatterError('the front matter needs a title');
  const content = lines
    .slice(end + 1)
    .join('\n')
    .trim();
  if (content === '') throw new FrontMatterError('the post has no content after the front matter');

  const post: PostInput & { title: string; content: string } = { title, content };
  for (const key of ['slug', 'excerpt', 'cover_image', 'author_name', 'category'] as const) {
    const value = get(key);
    if (value !== null) post[key] = value;
  }
  if (tags !== undefined) post.tags = tags;
  const published = values.get('published_at');
  if (published?.value) post.published_at = dateTime(published.value, published.line);

  const draft = values.get('draft');
  if (draft && draft.value !== 'true' && draft.value !== 'false') {
    throw new FrontMatterError(`line ${draft.line}: draft must be true or false`);
  }
  const status = values.get('status');
  if (status && !['draft', 'scheduled', 'published'].includes(status.value ?? '')) {
    throw new FrontMatterError(`line ${status.line}: status must be draft, scheduled or published`);
  }
  if (draft?.value === 'true') {
    if (status && status.value !== 'draft') {
      throw new FrontMatterError(`line ${status.line}: status ${status.value} contradicts draft: true`);
    }
    post.status = 'draft';
  } else if (status) {
    post.status = status.value as PostInput['status'];
  } else if (draft?.value === 'false' && post.published_at === undefined) {
    post.status = 'published';
  }
  // The file is the whole truth on re-import too: no date and no status is a draft.
  if (post.status === undefined && post.published_at === undefined) post.status = 'draft';
  return post;
}
