// Evidence hashes exactly as the contract defines them, so a reviewer can recompute them from an export.
import { createHash } from 'node:crypto';

/** Unicode NFC, whitespace runs collapsed to one space, trimmed. */
export function normaliseExcerpt(excerpt: string): string {
  return excerpt.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** SHA-256 hex of the normalised excerpt. */
export function contentHash(excerpt: string): string {
  return createHash('sha256').update(normaliseExcerpt(excerpt), 'utf8').digest('hex');
}

/** First 32 hex chars of SHA-256 over the content hashes, sorted and joined with `\n`; null without evidence. */
export function evidenceVersion(hashes: readonly string[]): string | null {
  if (hashes.length === 0) return null;
  return createHash('sha256')
    .update([...hashes].sort().join('\n'), 'utf8')
    .digest('hex')
    .slice(0, 32);
}
