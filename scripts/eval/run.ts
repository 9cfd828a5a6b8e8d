// `npm run eval`: runs every quality evaluation in scripts/eval (`*.eval.ts`, each a standalone script that
// prints its scores and exits 0 whether or not its goal is met, 1 only when it could not run), one after the
// other. EVAL_ONLY picks some by file-name substring.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const only = (process.env.EVAL_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.eval.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error('No evaluations matched.');
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
