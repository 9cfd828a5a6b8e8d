// Worker-thread entry for the NLP pool: loads the TypeScript analysis module through tsx (whatever started
// the main process) and warms the language model before the first task.
import { register } from 'tsx/esm/api';

register();
const { analyseBatch } = await import('./analysis.ts');
const { warmUp } = await import('./extraction.ts');
warmUp();

// The keys this thread analysed before: only a signal naming another one has its text's lexicon hits worked out.
const seenKeys = new Set();

export default function analyse(signals) {
  return analyseBatch(signals, seenKeys);
}
