// The phrase trie: every word sequence a phrase pattern stands for, stored under its first word, so that one walk
// from a token finds the longest phrase starting there (phrase-match.ts).

export interface PhraseEntry {
  pattern: string;
  weight: number;
  negatable: boolean;
  /** Whether an information question makes the phrase neutral. */
  askable: boolean;
  /** A narrative cue: counts only when corroborated (NARRATIVE_PHRASES). */
  narrative: boolean;
  /** Weighs 0 after a hypothetical marker or before "until" in its clause (ABSENCE_PHRASES). */
  conditional: boolean;
}

export interface TrieNode {
  next: Map<string, TrieNode>;
  /** Edge for `#` (any number). */
  num: TrieNode | undefined;
  /** Edge for `*` (any word). */
  any: TrieNode | undefined;
  entry: PhraseEntry | undefined;
}

export const newNode = (): TrieNode => ({
  next: new Map(),
  num: undefined,
  any: undefined,
  entry: undefined,
});
/** Phrases starting with a number (`# hours on hold`). */
export const NUMBER_ROOT = newNode();
/** Phrases starting with a number written in digits (`$ fee`: "$40 fee", not "a fee"). */
export const DIGIT_ROOT = newNode();

/** Every word sequence a pattern stands for (`#` and `*` kept as slots). */
export function expandPattern(pattern: string): string[][] {
  let out: string[][] = [[]];
  for (const slot of pattern.split(' ')) {
    const optional = slot.startsWith('[') && slot.endsWith(']');
    const words = (optional ? slot.slice(1, -1) : slot).split('|');
    const next: string[][] = [];
    for (const seq of out) {
      if (optional) next.push(seq);
      for (const w of words) next.push([...seq, w]);
    }
    out = next;
  }
  return out;
}

/**
 * Adds every sequence of `entry.pattern` to the trie: under NUMBER_ROOT or DIGIT_ROOT for a first `#` or `$`,
 * else under the node `wordRoot` gives the first word. `onWord` sees each later word the first time it is
 * added (its valence must be known when the phrase replaces it).
 */
export function addPattern(
  entry: PhraseEntry,
  wordRoot: (first: string) => TrieNode,
  onWord: (word: string) => void,
): void {
  for (const seq of expandPattern(entry.pattern)) {
    const [first, ...rest] = seq;
    if (first === undefined || first === '*')
      throw new Error(`A phrase cannot start with *: ${entry.pattern}`);
    let node: TrieNode;
    if (first === '#') node = NUMBER_ROOT;
    else if (first === '$') node = DIGIT_ROOT;
    else node = wordRoot(first);
    for (const w of rest) {
      if (w === '#') node = node.num ??= newNode();
      else if (w === '*') node = node.any ??= newNode();
      else {
        let child = node.next.get(w);
        if (child === undefined) {
          child = newNode();
          node.next.set(w, child);
          onWord(w);
        }
        node = child;
      }
    }
    // The first pattern to claim a sequence keeps it; listing order is the tie-break.
    node.entry ??= entry;
  }
}
