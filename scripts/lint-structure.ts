// Structure rules dependency-cruiser cannot see (it follows imports, not calls), run by `npm run lint`:
// - SQL only in stores: in src/modules and src/cli, Kysely's query builders and `sql` templates appear only in
//   store.ts, tables.ts (or files under a stores/ folder); platform's own persistence keeps its SQL in its files.
// - The injected clock: no `Date.now()` in src/modules or src/platform outside clock.ts.
// Prints each violation as file:line and exits 1 when there is one. `--files a.ts b.ts` checks only those.
import fs from 'node:fs';
import path from 'node:path';

interface Rule {
  name: string;
  /** Folders (relative to the project root) the rule covers. */
  roots: string[];
  applies: (file: string) => boolean;
  pattern: RegExp;
  advice: string;
}

const isStoreFile = (file: string) => /(^|\/)(store|tables)\.ts$/.test(file) || /\/stores\//.test(file);

export const RULES: Rule[] = [
  {
    name: 'sql-only-in-stores',
    roots: ['src/modules', 'src/cli'],
    applies: (file) => !isStoreFile(file),
    pattern:
      /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql(<[^>]*>)?`|\.transaction\(\)/,
    advice: 'move the query into a store method (store.ts) and call it',
  },
  {
    name: 'injected-clock',
    roots: ['src/modules', 'src/platform'],
    applies: (file) => !file.endsWith('src/platform/clock.ts'),
    pattern: /\bDate\.now\(\)/,
    advice: 'take the time from the injected Clock',
  },
];

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return /\.(ts|mts)$/.test(entry.name) ? [full] : [];
  });
}

/** Lines that break a rule, as `file:line rule: text`. Comments are not code and are skipped. */
export function violations(files: string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const rel = path.relative(process.cwd(), file).split(path.sep).join('/');
    const rules = RULES.filter((r) => r.roots.some((root) => rel.startsWith(`${root}/`)) && r.applies(rel));
    if (rules.length === 0) continue;
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      if (/^\s*(\*|\/\*)/.test(code)) return;
      for (const rule of rules) {
        if (rule.pattern.test(code))
          out.push(`${rel}:${i + 1} ${rule.name}: ${line.trim()} (${rule.advice})`);
      }
    });
  }
  return out;
}

const args = process.argv.slice(2);
const files =
  args[0] === '--files' ? args.slice(1) : [...new Set(RULES.flatMap((r) => r.roots).flatMap((r) => walk(r)))];
const found = violations(files);
if (found.length > 0) {
  console.error(`Structure rules broken (${found.length}):\n- ${found.join('\n- ')}`);
  process.exit(1);
}
console.log(`Structure rules hold (${files.length} files).`);
