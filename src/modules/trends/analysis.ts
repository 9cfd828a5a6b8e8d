// The CPU-heavy part of turning a signal into trend mentions: candidate extraction (wink-nlp) and VADER
// sentiment. Pure, so it runs the same in the main thread and in worker threads (nlp-pool.ts).
import { extractCandidates, type SignalText, type TrendCandidate } from './extraction.ts';
import { compound } from './sentiment.ts';

export interface SignalAnalysis {
  candidates: TrendCandidate[];
  /** VADER compound of title + text; 0 when the signal has no candidates (it is not needed then). */
  score: number;
}

function analyseSignal(signal: SignalText): SignalAnalysis {
  const candidates = extractCandidates(signal);
  if (candidates.length === 0) return { candidates, score: 0 };
  return { candidates, score: compound(signal.title ? `${signal.title}. ${signal.text}` : signal.text) };
}

export function analyseBatch(signals: SignalText[]): SignalAnalysis[] {
  return signals.map(analyseSignal);
}
