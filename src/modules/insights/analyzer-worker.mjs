// Worker-thread entry for the insight analysis (analysis-pool.ts): loads the TypeScript analyzer through tsx
// (whatever started the main process).
import { register } from 'tsx/esm/api';

register();
const { analyzeOffline } = await import('./analyzer.ts');

export default function analyze(input) {
  return analyzeOffline(input);
}
