// Structure rules dependency-cruiser cannot see (it follows imports, not calls), run by `npm run lint`
// (docs/architecture.md explains each):
// - sql-only-in-stores: in src/modules and src/cli, Kysely's query builders and `sql` templates appear only in
//   store.ts, tables.ts, files under a stores/ folder and migrations; platform's own persistence keeps its SQL in
//   its files.
// - injected-clock: no `Date.now()` in src/modules or src/platform outside clock.ts.
// - text-from-text: no module re-exports the text module's functions (they are imported from modules/text).
// - tables-through-their-owner: in src/modules and src/platform (migrations apart), queries name only tables
//   their own module (or the platform) declares; owners are read from the tables.ts files and
//   platform/db/schema.ts (scripts/structure/tables.ts).
// - web-shapes-from-sdk: web/src declares no interface or type alias named like a schema of the OpenAPI
//   document or a type the SDK exports; its API shapes come from @crestwatch/client (scripts/structure/web-shapes.ts).
// - one-wiring-style: every feature module's index.ts exports `create<Name>Module` (library modules, which have no
//   routes, are listed in LIBRARY_MODULES); the composition root (src/*.ts) neither constructs a class a module
//   exports nor calls a module's `register…` function: the module's factory does.
// - file-size: no TypeScript file in src/, scripts/ or web/src holds more than MAX_FILE_LINES lines.
// - literal-data: no TypeScript file in src/ or scripts/ holds more than MAX_LITERAL_DATA_LINES lines of literal
//   data (lexicons, tables, corpora belong in data files: scripts/structure/literal-data.ts counts them).
// Prints each violation as file:line and exits 1 when there is one. `--files a.ts b.ts` checks only those.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { literalDataLines } from './structure/literal-data.ts';
import { foreignTables, forgetTableOwners } from './structure/tables.ts';
import { handWrittenShapes } from './structure/web-shapes.ts';

/** A rule read line by line. */
interface LineRule {
  name: string;
  /** Folders (relative to the project root) the rule covers. */
  roots: string[];
  applies: (file: string) => boolean;
  pattern: RegExp;
  advice: string;
}

/** A rule that reads a whole file: each finding is `[line, text]` (line 0: the file as a whole). */
interface FileRule {
  name: string;
  roots: string[];
  applies: (file: string) => boolean;
  check: (text: string, file: string) => [line: number, text: string][];
  advice: string;
}

/** A file past this many lines holds more than one job: split it. */
export const MAX_FILE_LINES = 800;
/** Past this many lines of literal data, the data belongs in a data file beside the code that reads it. */
export const MAX_LITERAL_DATA_LINES = 300;

const isStoreFile = (file: string) =>
  /(^|\/)(store|tables)\.ts$/.test(file) || /\/(stores|migrations)\//.test(file);
const moduleOf = (file: string) => /^src\/modules\/([^/]+)\//.exec(file)?.[1];

export const LINE_RULES: LineRule[] = [
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

/** Names a file imports (`import { a, type B as C } from '…'`) from specifiers matching `from`. */
function importedNames(text: string, from: RegExp): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']*)'/g)) {
    if (!from.test(match[2]!)) continue;
    for (const part of match[1]!.split(',')) {
      const name = part
        .replace(/^\s*type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/** Names a file imports from the text module. */
const textImports = (text: string) => importedNames(text, /^\.\.\/text\//);

/** Modules without routes: shared code, no factory (each is checked to have no routes.ts). */
const LIBRARY_MODULES = new Set(['text', 'alerts']);

const factoryName = (module: string) =>
  `create${module.replace(/(^|[-_])([a-z])/g, (_m, _sep, c: string) => c.toUpperCase())}Module`;

/** Route files anywhere in a module's folder. */
function routeFiles(dir: string): string[] {
  return walk(dir).filter((file) => path.basename(file) === 'routes.ts');
}

/** A feature module's index.ts that does not export its factory; a library module with routes. */
function wiringOfIndex(text: string, file: string): [number, string][] {
  const module = moduleOf(file)!;
  if (LIBRARY_MODULES.has(module)) {
    const found = routeFiles(path.dirname(file));
    return found.length > 0 ? [[0, `library module ${module} has routes (${found.join(', ')})`]] : [];
  }
  const name = factoryName(module);
  // `export function createXModule`, or `createXModule` (or `… as createXModule`) in an `export { … }` list.
  const exported =
    new RegExp(`export\\s+(async\\s+)?function\\s+${name}\\b`).test(text) ||
    new RegExp(`export\\s*\\{[^}]*\\b${name}\\s*[,}]`).test(text);
  return exported ? [] : [[0, `index.ts exports no ${name}`]];
}

/** In a composition-root file: `new X(` of a class, or a `register…(` call of a function, a module exports. */
function wiringOfRoot(text: string): [number, string][] {
  const fromModules = importedNames(text, /^\.\/modules\//);
  const found: [number, string][] = [];
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    for (const match of code.matchAll(/(\bnew\s+)?\b([A-Za-z_$][\w$]*)\s*(?:<[^>()]*>)?\(/g)) {
      const name = match[2]!;
      if (!fromModules.has(name)) continue;
      if (match[1] || /^register/.test(name)) {
        found.push([i + 1, line.trim()]);
        break;
      }
    }
  });
  return found;
}

export const FILE_RULES: FileRule[] = [
  {
    name: 'text-from-text',
    roots: ['src/modules'],
    applies: (file) => moduleOf(file) !== undefined && moduleOf(file) !== 'text',
    check: (text) => {
      const found: [number, string][] = [];
      const imported = textImports(text);
      text.split('\n').forEach((line, i) => {
        if (
          /^\s*export\s+(type\s+)?(\*|\{[^}]*\}?)\s*(from\s*'\.\.\/text\/|$)/.test(line) &&
          /\.\.\/text\//.test(line)
        )
          found.push([i + 1, line.trim()]);
      });
      // `export { name }` of a name imported from text, on one line or in a block.
      for (const match of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}(?!\s*from)/g)) {
        const names = match[1]!.split(',').map((p) =>
          p
            .replace(/^\s*type\s+/, '')
            .split(/\s+as\s+/)[0]!
            .trim(),
        );
        const leaked = names.filter((n) => imported.has(n));
        if (leaked.length > 0) {
          const line = text.slice(0, match.index).split('\n').length;
          found.push([line, `export { ${leaked.join(', ')} }`]);
        }
      }
      return found;
    },
    advice: "text functions are imported from modules/text's index.ts, never re-exported by another module",
  },
  {
    name: 'one-wiring-style',
    roots: ['src/modules'],
    applies: (file) => /^src\/modules\/[^/]+\/index\.ts$/.test(file),
    check: wiringOfIndex,
    advice:
      'a feature module exports create<Name>Module(deps) → { api, routes } from its index.ts (src/platform/module.ts)',
  },
  {
    name: 'one-wiring-style',
    roots: ['src'],
    applies: (file) => /^src\/[^/]+\.ts$/.test(file),
    check: wiringOfRoot,
    advice:
      "build and wire a module's services in its create<Name>Module factory, not in the composition root",
  },
  {
    name: 'tables-through-their-owner',
    roots: ['src/modules', 'src/platform'],
    // Migrations run against the schema of their place in the order, not today's: a data migration may read
    // another owner's rows as they were then (through that owner's migrations/index.ts helpers).
    applies: (file) => !/\/migrations\//.test(file),
    check: foreignTables,
    advice:
      "ask the owner: its service, or a port this module declares and src/compose.ts fills with the owner's " +
      "method (one taking the caller's transaction when the work must commit together)",
  },
  {
    name: 'web-shapes-from-sdk',
    roots: ['web/src'],
    applies: () => true,
    check: handWrittenShapes,
    advice: "import the API's shape from @crestwatch/client (Schema, ResponseBody, RequestBody) instead",
  },
  {
    name: 'file-size',
    roots: ['src', 'scripts', 'web/src'],
    applies: () => true,
    check: (text) => {
      const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
      return lines > MAX_FILE_LINES ? [[0, `${lines} lines (at most ${MAX_FILE_LINES})`]] : [];
    },
    advice: 'split the file into files of one job each',
  },
  {
    name: 'literal-data',
    roots: ['src', 'scripts'],
    applies: () => true,
    check: (text) => {
      const lines = literalDataLines(text);
      return lines > MAX_LITERAL_DATA_LINES
        ? [[0, `${lines} lines of literal data (at most ${MAX_LITERAL_DATA_LINES})`]]
        : [];
    },
    advice:
      'move the lexicon, table or corpus to a data file (JSON, JSON Lines or TSV) with a README, read it with src/platform/data-files.ts',
  },
];

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return /\.(ts|mts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

const covers = (roots: string[], rel: string) => roots.some((root) => rel.startsWith(`${root}/`));

/** Lines that break a rule, as `file:line rule: text (advice)`. Comments are not code and are skipped. */
export function violations(files: string[]): string[] {
  // Owners are read once per check, afresh: a tables file may have changed since the last one.
  forgetTableOwners();
  const out: string[] = [];
  for (const file of files) {
    const rel = path.relative(process.cwd(), file).split(path.sep).join('/');
    const lineRules = LINE_RULES.filter((r) => covers(r.roots, rel) && r.applies(rel));
    const fileRules = FILE_RULES.filter((r) => covers(r.roots, rel) && r.applies(rel));
    if (lineRules.length === 0 && fileRules.length === 0) continue;
    const text = fs.readFileSync(file, 'utf8');
    text.split('\n').forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      if (/^\s*(\*|\/\*)/.test(code)) return;
      for (const rule of lineRules) {
        if (rule.pattern.test(code))
          out.push(`${rel}:${i + 1} ${rule.name}: ${line.trim()} (${rule.advice})`);
      }
    });
    for (const rule of fileRules) {
      for (const [line, what] of rule.check(text, rel))
        out.push(`${rel}:${line} ${rule.name}: ${what} (${rule.advice})`);
    }
  }
  return out;
}

const ALL_ROOTS = [...new Set([...LINE_RULES, ...FILE_RULES].flatMap((r) => r.roots))];

/** Every file some rule covers. */
export function coveredFiles(): string[] {
  return [...new Set(ALL_ROOTS.flatMap((r) => walk(r)))];
}

// Run as a script (`npm run lint`); test/architecture.test.ts imports `violations` instead.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const files = args[0] === '--files' ? args.slice(1) : coveredFiles();
  const found = violations(files);
  if (found.length > 0) {
    console.error(`Structure rules broken (${found.length}):\n- ${found.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`Structure rules hold (${files.length} files).`);
}
