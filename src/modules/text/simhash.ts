// 64-bit SimHash over word 3-shingles: near-duplicate texts (copy-paste spam, light edits) land within a few
// bits of each other, so they count once.
import { createHash } from 'node:crypto';
import { normaliseTokens } from './keys.ts';

/** Texts whose hashes differ in at most this many of 64 bits count as one. */
export const NEAR_DUPLICATE_BITS = 6;

function hash64(text: string): bigint {
  return createHash('md5').update(text, 'utf8').digest().readBigUInt64BE(0);
}

export function simhash(text: string): bigint {
  const tokens = normaliseTokens(text);
  const shingles: string[] = [];
  if (tokens.length < 3) shingles.push(tokens.join(' '));
  else for (let i = 0; i + 3 <= tokens.length; i++) shingles.push(tokens.slice(i, i + 3).join(' '));
  const weights = new Array<number>(64).fill(0);
  for (const shingle of shingles) {
    const h = hash64(shingle);
    for (let bit = 0; bit < 64; bit++) weights[bit] += (h >> BigInt(bit)) & 1n ? 1 : -1;
  }
  let out = 0n;
  for (let bit = 0; bit < 64; bit++) if (weights[bit] > 0) out |= 1n << BigInt(bit);
  return out;
}

export const simhashHex = (text: string) => simhash(text).toString(16).padStart(16, '0');

export function hammingDistance(a: bigint, b: bigint): number {
  let x = a ^ b;
  let n = 0;
  while (x) {
    x &= x - 1n;
    n++;
  }
  return n;
}
