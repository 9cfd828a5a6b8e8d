import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { readHintTable } from '../../../src/modules/text/hints.ts';
import { readLexicon } from '../../../src/modules/text/lexicon.ts';
import { CATEGORIES, readTaxonomy } from '../../../src/modules/text/taxonomy.ts';
import { DataFileError } from '../../../src/platform/data-files.ts';

function file(name: string, text: string): URL {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-categories-'));
  fs.writeFileSync(path.join(dir, name), text);
  return pathToFileURL(path.join(dir, name));
}

/** Asserts a DataFileError whose message matches `message` (which names the file and, for TSV, the line). */
function rejects(read: () => unknown, message: RegExp): void {
  assert.throws(read, (error: Error) => {
    assert.ok(error instanceof DataFileError, error.message);
    assert.match(error.message, message);
    return true;
  });
}

const NAMES = ['General', 'General/Other', 'Sports', 'Sports/Football'];
const taxonomy = (tops: unknown) => JSON.stringify(tops);
const GENERAL = {
  name: 'General',
  description: 'Everything else.',
  children: [{ name: 'Other', description: 'x' }],
};

describe('category data files', () => {
  test('the shipped taxonomy is read: 17 top-level categories, 90 children', () => {
    assert.equal(CATEGORIES.filter((c) => c.parent === null).length, 17);
    assert.equal(CATEGORIES.length, 17 + 90);
  });

  test('a taxonomy is read parents first, each followed by its children, with slugs made from the paths', () => {
    const url = file(
      'taxonomy.json',
      taxonomy([
        { name: 'Food & Drink', description: 'Food.', children: [{ name: 'Recipes', description: 'r' }] },
        GENERAL,
      ]),
    );
    assert.deepEqual(
      readTaxonomy(url).map((c) => [c.name, c.slug, c.parent]),
      [
        ['Food & Drink', 'food-drink', null],
        ['Food & Drink/Recipes', 'food-drink-recipes', 'Food & Drink'],
        ['General', 'general', null],
        ['General/Other', 'general-other', 'General'],
      ],
    );
  });

  test('a malformed taxonomy names the file and what is wrong', () => {
    rejects(
      () =>
        readTaxonomy(
          file(
            'taxonomy.json',
            taxonomy([{ ...GENERAL, children: [{ name: 'Other/Misc', description: 'x' }] }]),
          ),
        ),
      /taxonomy\.json: .* at \/0\/children\/0\/name/,
    );
    rejects(
      () => readTaxonomy(file('taxonomy.json', taxonomy([GENERAL, { ...GENERAL, name: 'general' }]))),
      /taxonomy\.json: category "general" is listed twice/,
    );
    rejects(
      () => readTaxonomy(file('taxonomy.json', taxonomy([{ ...GENERAL, name: 'Misc' }]))),
      /taxonomy\.json: no General\/Other/,
    );
    rejects(() => readTaxonomy(file('taxonomy.json', '[{"name": "General",')), /taxonomy\.json: not JSON/);
  });

  test('a lexicon row naming no category of the taxonomy, or an unknown strength, is named by its line', () => {
    const header = 'term\tcategory\tstrength\n';
    assert.deepEqual(readLexicon(file('lexicon.tsv', `${header}arsenal\tSports/Football\tstrong\n`), NAMES), [
      { term: 'arsenal', category: 'Sports/Football', strength: 'strong' },
    ]);
    rejects(
      () =>
        readLexicon(
          file('lexicon.tsv', `${header}arsenal\tSports/Football\tstrong\ngoal\tSports/Soccer\tweak\n`),
          NAMES,
        ),
      /lexicon\.tsv:3: .* at \/category/,
    );
    rejects(
      () => readLexicon(file('lexicon.tsv', `${header}# comment\ngoal\tSports/Football\tmedium\n`), NAMES),
      /lexicon\.tsv:3: .* at \/strength/,
    );
    rejects(
      () => readLexicon(file('lexicon.tsv', `${header}goal \tSports/Football\tweak\n`), NAMES),
      /lexicon\.tsv:2: .* at \/term/,
    );
    rejects(
      () => readLexicon(file('lexicon.tsv', `${header}goal\tSports/Football\n`), NAMES),
      /lexicon\.tsv:2: 2 cells/,
    );
  });

  test('a hint table keeps each key as it is looked up, once, naming a category of the taxonomy', () => {
    const header = 'alias\tcategory\n';
    const alias = (text: string) => readHintTable(file('aliases.tsv', text), 'alias', '^[a-z ]+$', NAMES);
    assert.deepEqual(
      [...alias(`${header}soccer\tSports/Football\nsport\tSports\n`)],
      [
        ['soccer', 'Sports/Football'],
        ['sport', 'Sports'],
      ],
    );
    rejects(
      () => alias(`${header}soccer\tSports/Football\nSport\tSports\n`),
      /aliases\.tsv:3: .* at \/alias/,
    );
    rejects(() => alias(`${header}soccer\tSports/Soccer\n`), /aliases\.tsv:2: .* at \/category/);
    rejects(
      () => alias(`${header}soccer\tSports/Football\nsoccer\tSports\n`),
      /aliases\.tsv: alias "soccer" is listed twice/,
    );
  });
});
