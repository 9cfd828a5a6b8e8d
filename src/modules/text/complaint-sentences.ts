// The complaint layer read by sentence: a text read as a whole (its complaint, sarcasm, courtesy and resolution
// rules see every sentence) with Δ credited to the sentence each part comes from, for insights' narrative reading.

import { flagsAt, type SentenceTrack, type Tokens, tokenize } from './complaint-tokens.ts';
import { F_BUT } from './complaint-words.ts';
import { read, STRONG_PHRASE } from './complaints.ts';

/** One sentence of a text as the layer reads it within the whole text (see `readSentences`). */
interface SentenceReading {
  /** The sentence's span in the text: text.slice(from, to). */
  from: number;
  to: number;
  /** The part of the text's Δ that comes from the sentence's words, with the sentence's own "but". */
  delta: number;
  /** Whether the sentence itself holds a complaint: phrase weights ≤ −1.5 or a strong negative word. */
  complaint: boolean;
}

/**
 * Sentence ends: one or more of . ! ? followed by white space or the end of the text, and line breaks. Pieces
 * without a word other than @handles and #tags (a trailing "@Brand") join the sentence before them (or, at the
 * start, the one after them).
 */
function sentenceSpans(text: string, t: Tokens): number[] {
  const spans: number[] = [];
  let from = 0;
  const len = text.length;
  for (let p = 0; p < len; p++) {
    const c = text.charCodeAt(p);
    let end = -1;
    let next = -1;
    if (c === 10) {
      end = p;
      next = p + 1;
    } else if (c === 33 || c === 46 || c === 63) {
      let q = p + 1;
      while (q < len && (text.charCodeAt(q) === 33 || text.charCodeAt(q) === 46 || text.charCodeAt(q) === 63))
        q++;
      if (q === len || /\s/.test(text[q]!)) {
        end = q;
        next = q;
      }
      p = q - 1;
    }
    if (end === -1) continue;
    spans.push(from, end);
    from = next;
  }
  if (from < len) spans.push(from, len);
  // Keep pieces that hold a word (not only handles and tags).
  const kept: number[] = [];
  let k = 0;
  for (let s = 0; s < spans.length; s += 2) {
    let words = false;
    while (k < t.length && t.start[k]! < spans[s + 1]!) {
      if (!t.handle[k]) words = true;
      k++;
    }
    if (words) kept.push(spans[s]!, spans[s + 1]!);
    else if (kept.length > 0) kept[kept.length - 1] = spans[s + 1]!;
    else if (s + 2 < spans.length) spans[s + 2] = spans[s]!;
  }
  return kept;
}

/**
 * The text read as a whole (its complaint, sarcasm, courtesy and resolution rules see every sentence) and
 * credited to its sentences: for each sentence, its span, the part of Δ from its words and whether it holds a
 * complaint itself. For the narrative reading of long texts (insights' classifier); `[]` for an empty text.
 */
export function readSentences(text: string): SentenceReading[] {
  const t = tokenize(text);
  const spans = sentenceSpans(text, t);
  const count = spans.length / 2;
  if (count === 0) return [];
  const track: SentenceTrack = {
    of: new Int32Array(t.length),
    but: new Int32Array(count).fill(-1),
    delta: new Float64Array(count),
    phrases: new Float64Array(count),
    strongWord: new Uint8Array(count),
  };
  let s = 0;
  for (let k = 0; k < t.length; k++) {
    while (s < count - 1 && t.start[k]! >= spans[2 * s + 2]!) s++;
    track.of[k] = s;
    if (track.but[s] === -1 && (flagsAt(t, k) & F_BUT) !== 0) {
      const original = t.aligned ? t.text.slice(t.start[k]!, t.start[k]! + 3) : '';
      if (original === 'but' || original === 'BUT') track.but[s] = k;
    }
  }
  t.sentences = track;
  try {
    read(text, null, t);
  } finally {
    t.sentences = null;
  }
  const out: SentenceReading[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      from: spans[2 * i]!,
      to: spans[2 * i + 1]!,
      delta: track.delta[i]!,
      complaint: track.phrases[i]! <= STRONG_PHRASE || track.strongWord[i] === 1,
    });
  }
  return out;
}
