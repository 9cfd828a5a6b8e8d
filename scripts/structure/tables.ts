// Tables through their owner: for the "tables-through-their-owner" rule of scripts/lint-structure.ts. Every
// table belongs to the one owner whose table types declare it: a module's `*Tables` interface in any tables.ts
// under src/modules/<module>/, or the platform's in src/platform/db/schema.ts. Only the owner's code queries
// it; another module asks the owner's service, or a port the composition root fills with the owner's method.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PLATFORM_SCHEMA = 'src/platform/db/schema.ts';
const DATABASE = 'src/database.ts';

/** Kysely builder calls whose first argument names a table (or an array of them). */
const TABLE_CALLS = new Set([
  'selectFrom',
  'insertInto',
  'replaceInto',
  'mergeInto',
  'updateTable',
  'deleteFrom',
]);
const JOIN_CALL = /^(inner|left|right|full|cross)Join(Lateral)?$/;
/** A string or template that is a statement of its own (raw SQL handed to CompiledQuery.raw and the like). */
const SQL_STATEMENT = /^\s*\(?\s*(select|insert|update|delete|with)\b/i;
/** Where SQL text names a table. */
const SQL_TABLE = /\b(?:from|join|update|into)\s+"?([a-z_][a-z0-9_]*)"?/gi;

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

/** The owner a file of the project belongs to: `platform`, a module's name, or undefined (root, CLI, …). */
function ownerOf(rel: string): string | undefined {
  if (rel.startsWith('src/platform/')) return 'platform';
  return /^src\/modules\/([^/]+)\//.exec(rel)?.[1];
}

/** `interface XTables { table: XTable; … }` declarations of a file: interface name → table names. */
function tablesInterfaces(rel: string, text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const statement of parse(rel, text).statements) {
    if (!ts.isInterfaceDeclaration(statement) || !/Tables$/.test(statement.name.text)) continue;
    found.set(
      statement.name.text,
      statement.members.map((m) => m.name!.getText().replace(/^["']|["']$/g, '')),
    );
  }
  return found;
}

/**
 * Table → owner, read from the table types: every `*Tables` interface of a tables.ts under src/modules/<module>/
 * and of src/platform/db/schema.ts. Fails loudly when a table has two owners, a tables.ts declares no `*Tables`
 * interface, or src/database.ts merges one that no owner declares (a table nobody owns).
 */
export function tableOwners(root = ROOT): Map<string, string> {
  const files = [
    PLATFORM_SCHEMA,
    ...walk(path.join(root, 'src/modules'))
      .map((f) => path.relative(root, f).split(path.sep).join('/'))
      .filter((f) => f.endsWith('/tables.ts') && !f.includes('/migrations/')),
  ];
  const owners = new Map<string, string>();
  const declared = new Set<string>();
  for (const rel of files) {
    const owner = ownerOf(rel)!;
    const interfaces = tablesInterfaces(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
    if (interfaces.size === 0) throw new Error(`${rel}: no \`interface …Tables\` declares its tables`);
    for (const [name, tables] of interfaces) {
      declared.add(name);
      for (const table of tables) {
        const other = owners.get(table);
        if (other !== undefined && other !== owner)
          throw new Error(`table ${table} is declared by both ${other} and ${owner} (${rel})`);
        owners.set(table, owner);
      }
    }
  }
  const database = parse(DATABASE, fs.readFileSync(path.join(root, DATABASE), 'utf8'));
  for (const statement of database.statements) {
    if (!ts.isInterfaceDeclaration(statement) || statement.name.text !== 'Database') continue;
    for (const clause of statement.heritageClauses ?? []) {
      for (const type of clause.types) {
        const name = type.expression.getText(database);
        if (!declared.has(name))
          throw new Error(`${DATABASE}: Database merges ${name}, which no owner declares`);
      }
    }
  }
  return owners;
}

let cached: Map<string, string> | undefined;
const owners = () => {
  cached ??= tableOwners();
  return cached;
};

/** The next check reads the owners from the tables files again. */
export function forgetTableOwners(): void {
  cached = undefined;
}

/** The table a builder argument names (`'trends as t'` → `trends`). */
const tableOfArgument = (text: string) =>
  text
    .trim()
    .split(/\s+as\s+/i)[0]!
    .trim();

/**
 * Each query of the file that reaches a table of another owner, as `[line, 'selectFrom: signals (owned by
 * signals)']`: Kysely builder calls and joins naming it, `sql.table('…')`, and, best effort, the table names of
 * raw SQL (`from x`, `join x`, `update x`, `into x`) in sql`` templates and in strings that are a statement.
 */
export function foreignTables(text: string, file: string): [number, string][] {
  const mine = ownerOf(file);
  if (mine === undefined) return [];
  // Read the owners first, so that a tables file breaking them fails the check even where nothing is queried.
  const owned = owners();
  const source = parse(file, text);
  const found: { pos: number; line: number; what: string }[] = [];
  const lineAt = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const report = (table: string, pos: number, how: string) => {
    const owner = owned.get(table);
    if (owner !== undefined && owner !== mine)
      found.push({
        pos,
        line: lineAt(pos),
        what: `${how} ${table} (owned by ${owner === 'platform' ? 'the platform' : owner})`,
      });
  };
  const scanSql = (parts: { text: string; pos: number }[], how: string) => {
    for (const part of parts) {
      // +1: past the quote, backtick or `}` the literal starts with (escapes aside, the table's own line).
      for (const match of part.text.matchAll(SQL_TABLE))
        report(match[1]!.toLowerCase(), part.pos + 1 + match.index!, how);
    }
  };
  /** A template's literal texts with where each starts. */
  const templateParts = (template: ts.TemplateLiteral) =>
    ts.isNoSubstitutionTemplateLiteral(template)
      ? [{ text: template.text, pos: template.getStart(source) }]
      : [
          { text: template.head.text, pos: template.head.getStart(source) },
          ...template.templateSpans.map((s) => ({ text: s.literal.text, pos: s.literal.getStart(source) })),
        ];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const first = node.arguments[0];
      const isSqlTable = method === 'table' && node.expression.expression.getText(source) === 'sql';
      if (first && (TABLE_CALLS.has(method) || JOIN_CALL.test(method) || isSqlTable)) {
        const names = ts.isArrayLiteralExpression(first) ? [...first.elements] : [first];
        for (const name of names) {
          if (ts.isStringLiteralLike(name))
            report(tableOfArgument(name.text), name.getStart(source), `${method}:`);
        }
      }
    } else if (ts.isTaggedTemplateExpression(node) && node.tag.getText(source) === 'sql') {
      scanSql(templateParts(node.template), 'sql template:');
      ts.forEachChild(node.template, visit);
      return;
    } else if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateExpression(node)) &&
      !ts.isTaggedTemplateExpression(node.parent)
    ) {
      const parts = ts.isStringLiteral(node)
        ? [{ text: node.text, pos: node.getStart(source) }]
        : templateParts(node);
      if (SQL_STATEMENT.test(parts[0]!.text)) scanSql(parts, 'raw SQL:');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // A chain is visited from its last call back to its first: report in the order of the text.
  return found.sort((a, b) => a.pos - b.pos).map((f) => [f.line, f.what]);
}
