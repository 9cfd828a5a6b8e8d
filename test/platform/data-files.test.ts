import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Type } from 'typebox';
import { DataFileError, loadJson, loadJsonl, loadTsv } from '../../src/platform/data-files.ts';

function file(name: string, text: string): URL {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-data-'));
  const full = path.join(dir, name);
  fs.writeFileSync(full, text);
  return pathToFileURL(full);
}

const Phrase = Type.Object({ pattern: Type.String({ minLength: 1 }), weight: Type.Number() });

describe('data files', () => {
  test('a JSON file that matches its schema is returned as it is', () => {
    const url = file('words.json', '["a", "b"]');
    assert.deepEqual(loadJson(url, Type.Array(Type.String())), ['a', 'b']);
  });

  test('a JSON file that does not match names the file and the field', () => {
    const url = file('words.json', '["a", 2]');
    assert.throws(
      () => loadJson(url, Type.Array(Type.String())),
      (error: Error) => {
        assert.ok(error instanceof DataFileError);
        assert.match(error.message, /words\.json: .* at \/1/);
        return true;
      },
    );
    assert.throws(
      () => loadJson(file('broken.json', '["a",'), Type.Array(Type.String())),
      /broken\.json: not JSON/,
    );
  });

  test('JSON Lines: one value per line, blank lines skipped, a bad line named by its number', () => {
    const url = file(
      'phrases.jsonl',
      '{"pattern":"on hold","weight":-2}\n\n{"pattern":"refund","weight":-1.5}\n',
    );
    assert.deepEqual(loadJsonl(url, Phrase), [
      { pattern: 'on hold', weight: -2 },
      { pattern: 'refund', weight: -1.5 },
    ]);
    const bad = file('bad.jsonl', '{"pattern":"on hold","weight":-2}\n{"pattern":"","weight":1}\n');
    assert.throws(() => loadJsonl(bad, Phrase), /bad\.jsonl:2: .* at \/pattern/);
  });

  test('TSV: a header names the columns, comments are skipped, numeric columns are numbers', () => {
    const url = file(
      'phrases.tsv',
      '# source: written for this project\npattern\tweight\non hold\t-2\nrefund\t-1.5\n',
    );
    assert.deepEqual(loadTsv(url, Phrase, { numeric: ['weight'] }), [
      { pattern: 'on hold', weight: -2 },
      { pattern: 'refund', weight: -1.5 },
    ]);
    assert.throws(
      () => loadTsv(file('short.tsv', 'pattern\tweight\non hold\n'), Phrase, { numeric: ['weight'] }),
      /short\.tsv:2: 1 cells where the header names 2/,
    );
    assert.throws(
      () => loadTsv(file('nan.tsv', 'pattern\tweight\non hold\theavy\n'), Phrase, { numeric: ['weight'] }),
      /nan\.tsv:2: weight "heavy" is not a number/,
    );
    assert.throws(() => loadTsv(file('empty.tsv', '# nothing\n'), Phrase), /empty\.tsv: no header row/);
  });
});
