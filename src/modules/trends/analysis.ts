// The CPU-heavy part of turning a signal into trend mentions: candidate extraction (wink-nlp), VADER
// sentiment with the complaint layer (sentiment.ts mentionScore) and the text fingerprint evidence weighting
// folds copy-paste with (evidence.ts). Pure, so it runs the same in the main thread and in worker threads
// (nlp-pool.ts).
import { signalFingerprint } from './evidence.ts';
import { extractCandidates, type SignalText, type TrendCandidate } from './extraction.ts';
import { mentionScore } from './sentiment.ts';

export interface SignalAnalysis {
  candidates: TrendCandidate[];
  /** mentionScore of title + text; 0 when the signal has no candidates (it is not needed then). */
  score: number;
  /** signalFingerprint of title + text (0 without candidates). */
  fingerprint: number;
}

function analyseSignal(signal: SignalText): SignalAnalysis {
  const candidates = extractCandidates(signal);
  if (candidates.length === 0) return { candidates, score: 0, fingerprint: 0 };
  return {
    candidates,
    score: mentionScore(signal.title ? `${signal.title}. ${signal.text}` : signal.text),
    fingerprint: signalFingerprint(signal.text, signal.title),
  };
}

export function analyseBatch(signals: SignalText[]): SignalAnalysis[] {
  return signals.map(analyseSignal);
}
