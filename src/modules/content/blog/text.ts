// Pure text helpers for blog posts: Markdown to plain text, excerpts, reading time, slugs, search keys.

const WORDS_PER_MINUTE = 200;
const EXCERPT_CHARS = 200;

/** Plain text of Markdown: code fences kept as text, markup, links' targets, images and HTML tags dropped. */
export function stripMarkdown(markdown: string): string {
  return (
    markdown
      .replace(/\r\n?/g, '\n')
      // Fenced code: keep the code, drop the fences.
      .replace(/^(```|~~~)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm, '$2')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
      .replace(/^\s{0,3}\[[^\]]+\]:\s*\S+.*$/gm, '')
      .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
      .replace(/^\s{0,3}#{1,6}\s+/gm, '')
      .replace(/^\s{0,3}>\s?/gm, '')
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
      .replace(/^\s*(?:[-*_]\s*){3,}$/gm, '')
      .replace(/(\*\*|__)(.+?)\1/g, '$2')
      .replace(/(^|[^\w*])[*_]([^*_\n]+)[*_](?=[^\w*]|$)/g, '$1$2')
      .replace(/~~(.+?)~~/g, '$1')
      .replace(/`([^`]*)`/g, '$1')
      .replace(/\|/g, ' ')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n{2,}/g, '\n\n')
      .trim()
  );
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** 200 words a minute, rounded up, at least 1. */
export function readingTimeMinutes(markdown: string): number {
  return Math.max(1, Math.ceil(wordCount(stripMarkdown(markdown)) / WORDS_PER_MINUTE));
}

/** About 200 characters of the plain text, cut at a word boundary, with an ellipsis when cut. */
export function deriveExcerpt(markdown: string, max = EXCERPT_CHARS): string {
  const text = stripMarkdown(markdown).replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  const head = (space > max / 2 ? cut.slice(0, space) : text.slice(0, max)).replace(/[\s,;:.!?-]+$/, '');
  return `${head}…`;
}

/** `Hello, Wörld!` → `hello-world`: lowercase ASCII letters and digits joined by single hyphens. */
export function slugify(title: string, max = 80): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, max).replace(/-+$/, '');
}

export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

/** The form search compares: NFKC, lowercase, whitespace collapsed (same on SQLite and PostgreSQL). */
export function searchKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}
