// The CPU-heavy part of turning signals into trend mentions: candidate extraction (wink-nlp's tokens), VADER
// sentiment with the complaint layer (sentiment.ts mentionScore), the text fingerprint evidence weighting
// folds copy-paste with (evidence.ts), and the lexicon hits that categorise a new trend (text-hits.ts). Pure, so it runs the same in the main thread and in worker threads
// (nlp-pool.ts).
//
// A batch's result is a few arrays rather than an object per signal and candidate: it crosses between threads
// as one structured clone, and each distinct key and surface form is one string however often the batch
// mentions it, so the thread that writes the batch has little to unpack and little garbage to collect.
import {
  type CandidateType,
  type SignalText,
  type WordCandidates,
  withKeywords,
  wordCandidates,
} from './extraction.ts';
import { signalFingerprint } from './fingerprint.ts';
import { mentionScore } from './sentiment.ts';
import { sampleTextHits, type TextHits } from './text-hits.ts';

/** Candidate types by their code in `BatchAnalysis.candidateTypes`. */
export const CANDIDATE_TYPES: readonly CandidateType[] = ['hashtag', 'entity', 'keyword'];
const TYPE_CODE: Record<CandidateType, number> = { hashtag: 0, entity: 1, keyword: 2 };

/** The analysis of a batch of signals, in their order. */
export interface BatchAnalysis {
  /** The distinct candidate keys of the batch, in order of first mention. */
  keys: string[];
  /** The distinct surface forms, in order of first mention. */
  surfaces: string[];
  /** Signal i's candidates are those at [offsets[i], offsets[i + 1]). */
  offsets: Uint32Array;
  /** Per candidate: its key (index into `keys`), surface form (into `surfaces`) and type (CANDIDATE_TYPES). */
  candidateKeys: Uint32Array;
  candidateSurfaces: Uint32Array;
  candidateTypes: Uint8Array;
  /** Per signal: mentionScore of title + text (0 without candidates: it is not needed then). */
  scores: Float64Array;
  /** Per signal: signalFingerprint of title + text (0 without candidates). */
  fingerprints: Uint32Array;
  /**
   * Per signal: 1 when its text's lexicon hits were worked out (text-hits.ts `sampleTextHits`), which they are
   * for a signal naming a key this thread had not seen in an earlier batch: likely a new trend, which is
   * categorised over its signals' texts. They are hits[hitOffsets[i] … hitOffsets[i + 1]).
   */
  hitsKnown: Uint8Array;
  hitOffsets: Uint32Array;
  hits: Int32Array;
}

/** Builds a BatchAnalysis, interning keys and surface forms. */
class AnalysisBuilder {
  private readonly keyIndex = new Map<string, number>();
  private readonly surfaceIndex = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly surfaces: string[] = [];
  private readonly candidateKeys: number[] = [];
  private readonly candidateSurfaces: number[] = [];
  private readonly candidateTypes: number[] = [];
  private readonly offsets: number[] = [0];
  private readonly scores: number[] = [];
  private readonly fingerprints: number[] = [];
  private readonly hitsKnown: number[] = [];
  private readonly hitOffsets: number[] = [0];
  private readonly hits: number[] = [];

  private intern(value: string, index: Map<string, number>, list: string[]): number {
    let at = index.get(value);
    if (at === undefined) {
      at = list.length;
      list.push(value);
      index.set(value, at);
    }
    return at;
  }

  candidate(key: string, surface: string, type: number): void {
    this.candidateKeys.push(this.intern(key, this.keyIndex, this.keys));
    this.candidateSurfaces.push(this.intern(surface, this.surfaceIndex, this.surfaces));
    this.candidateTypes.push(type);
  }

  /** Ends a signal whose candidates were added; `hits` are its text's lexicon hits when worked out. */
  signal(score: number, fingerprint: number, hits: TextHits | null): void {
    this.offsets.push(this.candidateKeys.length);
    this.scores.push(score);
    this.fingerprints.push(fingerprint);
    this.hitsKnown.push(hits === null ? 0 : 1);
    if (hits !== null) for (let i = 0; i < hits.length; i++) this.hits.push(hits[i]!);
    this.hitOffsets.push(this.hits.length);
  }

  build(): BatchAnalysis {
    return {
      keys: this.keys,
      surfaces: this.surfaces,
      offsets: Uint32Array.from(this.offsets),
      candidateKeys: Uint32Array.from(this.candidateKeys),
      candidateSurfaces: Uint32Array.from(this.candidateSurfaces),
      candidateTypes: Uint8Array.from(this.candidateTypes),
      scores: Float64Array.from(this.scores),
      fingerprints: Uint32Array.from(this.fingerprints),
      hitsKnown: Uint8Array.from(this.hitsKnown),
      hitOffsets: Uint32Array.from(this.hitOffsets),
      hits: Int32Array.from(this.hits),
    };
  }
}

/**
 * What a signal's title and text give in their language, whoever sent them: the candidates of the words, and once
 * asked for, the score and fingerprint (needed only when the signal has a candidate).
 */
interface WordsAnalysis {
  words: WordCandidates;
  score?: number;
  fingerprint?: number;
}

/**
 * Signals' words analysed lately: a copied post, a retweet, a syndicated headline or the same text sent with other
 * keywords is read once (the analysis is a pure function of title, text and language; keywords join the
 * candidates afterwards, `withKeywords`). Cleared when full, as the other memories.
 */
const RECENT = new Map<string, WordsAnalysis>();
export const RECENT_KEPT = 20_000;

/** How many signals' words the memory holds (bounded by RECENT_KEPT). */
export function recentWordsHeld(): number {
  return RECENT.size;
}

function wordsAnalysis(signal: SignalText): WordsAnalysis {
  if (typeof signal.text !== 'string') return { words: wordCandidates(signal) };
  const title = typeof signal.title === 'string' ? signal.title : '';
  // Each part after its length, so that no other title, text and language give the same string.
  const lang = signal.lang ?? '';
  const key = `${lang.length}:${lang}${title.length}:${title}|${signal.text}`;
  let analysis = RECENT.get(key);
  if (analysis === undefined) {
    analysis = { words: wordCandidates(signal) };
    if (RECENT.size >= RECENT_KEPT) RECENT.clear();
    RECENT.set(key, analysis);
  }
  return analysis;
}

/** Keys a thread remembers having analysed (`analyseBatch`'s seenKeys); past it the memory starts again. */
const SEEN_KEYS_KEPT = 200_000;

/**
 * Analyses a batch. With `seenKeys` (the keys of the thread's earlier batches, which it adds this batch's to),
 * lexicon hits are worked out only for signals naming a key not in it; without it, for every signal with
 * candidates.
 */
export function analyseBatch(signals: readonly SignalText[], seenKeys?: Set<string>): BatchAnalysis {
  const out = new AnalysisBuilder();
  for (const signal of signals) {
    const analysis = wordsAnalysis(signal);
    const candidates = withKeywords(analysis.words, signal.keywords);
    if (candidates.length === 0) {
      out.signal(0, 0, null);
      continue;
    }
    let unseen = false;
    for (const c of candidates) {
      out.candidate(c.key, c.surface, TYPE_CODE[c.type]);
      if (seenKeys === undefined || !seenKeys.has(c.key)) unseen = true;
    }
    analysis.score ??= mentionScore(signal.title ? `${signal.title}. ${signal.text}` : signal.text);
    analysis.fingerprint ??= signalFingerprint(signal.text, signal.title);
    out.signal(
      analysis.score,
      analysis.fingerprint,
      // Worked out here, where the text was just read and the thread has time, not where the batch is written.
      unseen ? sampleTextHits(signal.text) : null,
    );
  }
  const analysis = out.build();
  if (seenKeys !== undefined) {
    if (seenKeys.size + analysis.keys.length > SEEN_KEYS_KEPT) seenKeys.clear();
    for (const key of analysis.keys) seenKeys.add(key);
  }
  return analysis;
}

/** The analyses of consecutive parts of a batch as one (what analyseBatch gives the whole batch). */
export function joinAnalyses(parts: readonly BatchAnalysis[]): BatchAnalysis {
  if (parts.length === 1) return parts[0]!;
  const out = new AnalysisBuilder();
  for (const part of parts) {
    for (let i = 0; i + 1 < part.offsets.length; i++) {
      for (let c = part.offsets[i]!; c < part.offsets[i + 1]!; c++) {
        out.candidate(
          part.keys[part.candidateKeys[c]!]!,
          part.surfaces[part.candidateSurfaces[c]!]!,
          part.candidateTypes[c]!,
        );
      }
      out.signal(
        part.scores[i]!,
        part.fingerprints[i]!,
        part.hitsKnown[i] ? part.hits.subarray(part.hitOffsets[i]!, part.hitOffsets[i + 1]!) : null,
      );
    }
  }
  return out.build();
}

/**
 * `analysis` with keys added to some of its signals as keyword candidates (`extra`: signal index → keys, e.g. the
 * interests a post names, phrases.ts): a key a signal already names is not added twice. A signal that named
 * nothing before gets its score and fingerprint here (the threads leave them 0 then).
 */
export function withExtraCandidates(
  analysis: BatchAnalysis,
  extra: ReadonlyMap<number, readonly { key: string; surface: string }[]>,
  texts: (i: number) => { text: string; title: string | null },
): BatchAnalysis {
  if (extra.size === 0) return analysis;
  const out = new AnalysisBuilder();
  const { offsets, keys, surfaces, candidateKeys, candidateSurfaces, candidateTypes } = analysis;
  for (let i = 0; i + 1 < offsets.length; i++) {
    const named = new Set<string>();
    for (let c = offsets[i]!; c < offsets[i + 1]!; c++) {
      const key = keys[candidateKeys[c]!]!;
      named.add(key);
      out.candidate(key, surfaces[candidateSurfaces[c]!]!, candidateTypes[c]!);
    }
    let score = analysis.scores[i]!;
    let fingerprint = analysis.fingerprints[i]!;
    const added = (extra.get(i) ?? []).filter(({ key }) => !named.has(key));
    for (const { key, surface } of added) out.candidate(key, surface, TYPE_CODE.keyword);
    if (named.size === 0 && added.length > 0) {
      const { text, title } = texts(i);
      score = mentionScore(title ? `${title}. ${text}` : text);
      fingerprint = signalFingerprint(text, title);
    }
    out.signal(
      score,
      fingerprint,
      analysis.hitsKnown[i]
        ? analysis.hits.subarray(analysis.hitOffsets[i]!, analysis.hitOffsets[i + 1]!)
        : null,
    );
  }
  return out.build();
}
