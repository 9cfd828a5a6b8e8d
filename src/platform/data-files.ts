// Data files shipped beside the code that loads them (lexicons, taxonomies, word lists, demo topics): read once,
// checked against a TypeBox schema and returned typed. A file that does not match its schema stops the process at
// start with the file, the line (JSONL, TSV) and the field that is wrong, rather than misreading text later.
// Each data folder has a README.md naming every file's source and licence.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';

export class DataFileError extends Error {
  constructor(file: URL | string, where: string, problem: string) {
    super(`${typeof file === 'string' ? file : fileURLToPath(file)}${where}: ${problem}`);
    this.name = 'DataFileError';
  }
}

function check<T extends TSchema>(schema: T, value: unknown, file: URL, where: string): Static<T> {
  if (Value.Check(schema, value)) return value as Static<T>;
  const first = [...Value.Errors(schema, value)][0];
  const path = first?.instancePath ? ` at ${first.instancePath}` : '';
  throw new DataFileError(file, where, `${first?.message ?? 'does not match its schema'}${path}`);
}

function read(file: URL): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new DataFileError(file, '', (error as Error).message);
  }
}

function parse(text: string, file: URL, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DataFileError(file, where, `not JSON (${(error as Error).message})`);
  }
}

/** A JSON file whose whole content matches `schema`. */
export function loadJson<T extends TSchema>(file: URL, schema: T): Static<T> {
  return check(schema, parse(read(file), file, ''), file, '');
}

/** A JSON Lines file: one value per non-empty line, each matching `schema`. */
export function loadJsonl<T extends TSchema>(file: URL, schema: T): Static<T>[] {
  const rows: Static<T>[] = [];
  read(file)
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const where = `:${i + 1}`;
      rows.push(check(schema, parse(line, file, where), file, where));
    });
  return rows;
}

/**
 * A tab-separated file with a header row naming its columns. Lines starting with `#` are comments. Each row
 * becomes an object of the header's names (cells as strings; `numeric` columns as numbers) and must match
 * `schema`.
 */
export function loadTsv<T extends TSchema>(
  file: URL,
  schema: T,
  options: { numeric?: readonly string[] } = {},
): Static<T>[] {
  const lines = read(file).split('\n');
  let header: string[] | null = null;
  const rows: Static<T>[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const cells = line.split('\t');
    if (header === null) {
      header = cells.map((c) => c.trim());
      return;
    }
    const where = `:${i + 1}`;
    if (cells.length !== header.length)
      throw new DataFileError(file, where, `${cells.length} cells where the header names ${header.length}`);
    const row: Record<string, unknown> = {};
    header.forEach((name, c) => {
      const cell = cells[c]!;
      if (options.numeric?.includes(name)) {
        const number = Number(cell);
        if (cell.trim() === '' || !Number.isFinite(number))
          throw new DataFileError(file, where, `${name} "${cell}" is not a number`);
        row[name] = number;
      } else row[name] = cell;
    });
    rows.push(check(schema, row, file, where));
  });
  if (header === null) throw new DataFileError(file, '', 'no header row');
  return rows;
}
