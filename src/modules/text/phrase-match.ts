// Phrase matching: the longest phrase of the trie (phrase-trie.ts) that starts at a token.
import { isDigit, isNumberToken, type Tokens } from './complaint-tokens.ts';
import { DIGIT_ROOT, NUMBER_ROOT, type PhraseEntry, type TrieNode } from './phrase-trie.ts';

/** The longest match found so far by `walk` (module scratch, like the tokens). */
let bestEnd = -1;
let bestEntry: PhraseEntry | undefined;

function walk(t: Tokens, node: TrieNode, j: number): void {
  if (node.entry !== undefined && j > bestEnd) {
    bestEnd = j;
    bestEntry = node.entry;
  }
  if (j >= t.length) return;
  const child = node.next.get(t.words[j]!);
  if (child !== undefined) walk(t, child, j + 1);
  if (node.num !== undefined && isNumberToken(t, j)) walk(t, node.num, j + 1);
  if (node.any !== undefined) walk(t, node.any, j + 1);
}

/** The longest phrase match starting at token `at`: its end (exclusive) and entry, or null. */
export function longestMatch(t: Tokens, at: number): { end: number; entry: PhraseEntry } | null {
  const root = t.infos[at]?.root;
  const numeric = isNumberToken(t, at);
  if (root === undefined && !numeric) return null;
  bestEnd = -1;
  bestEntry = undefined;
  if (root !== undefined) walk(t, root, at + 1);
  if (numeric) walk(t, NUMBER_ROOT, at + 1);
  if (isDigit(t.words[at]!.charCodeAt(0))) walk(t, DIGIT_ROOT, at + 1);
  return bestEntry === undefined ? null : { end: bestEnd, entry: bestEntry };
}
