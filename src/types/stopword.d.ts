// stopword v3 ships no type declarations (and @types/stopword is not installed): the parts we use.
declare module 'stopword' {
  /** English stop words (lower case). */
  export const eng: readonly string[];
  /** Removes stop words (default: English) from a token array, comparing case-insensitively. */
  export function removeStopwords(tokens: readonly string[], stopwords?: readonly string[]): string[];
}
