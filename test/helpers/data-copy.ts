// A temporary copy of a data folder with one file edited, to see what its loader makes of a malformed entry.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Copies `dir` (a folder URL) to a temporary folder, applies `edit` to `file`'s text there; returns its URL. */
export function editedCopy(dir: URL, file: string, edit: (text: string) => string): URL {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-data-copy-'));
  fs.cpSync(fileURLToPath(dir), copy, { recursive: true });
  const target = path.join(copy, file);
  const before = fs.readFileSync(target, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`the edit left ${file} unchanged`);
  fs.writeFileSync(target, after);
  return pathToFileURL(`${copy}${path.sep}`);
}
