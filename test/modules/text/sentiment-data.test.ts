// The sentiment data files (src/modules/text/data/sentiment/): the shipped ones load into the tables the layer
// exports, and a malformed row is refused with the file and the line named.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import {
  ABSENCE_PHRASES,
  COMPLAINT_PHRASES,
  NARRATIVE_PHRASES,
  readComplaintLexicon,
  SERVICE_WORDS,
  WORDS,
} from '../../../src/modules/text/complaint-lexicon.ts';
import { NEGATE, readVaderTables } from '../../../src/modules/text/vader.ts';
import { DataFileError } from '../../../src/platform/data-files.ts';
import { editedCopy } from '../../helpers/data-copy.ts';

const DATA = new URL('../../../src/modules/text/data/sentiment/', import.meta.url);

/** The line number (from 1) of the first line of `file` that starts with `start`. */
function lineOf(file: string, start: string): number {
  const lines = fs.readFileSync(new URL(file, DATA), 'utf8').split('\n');
  const at = lines.findIndex((line) => line.startsWith(start));
  assert.ok(at >= 0, `${file}: no line starting with ${start}`);
  return at + 1;
}

/** Asserts that reading the edited copy fails with a DataFileError matching `message`. */
function refused(read: () => unknown, message: RegExp): void {
  assert.throws(read, (error: Error) => {
    assert.ok(error instanceof DataFileError, String(error));
    assert.match(error.message, message);
    return true;
  });
}

describe('complaint layer data files', () => {
  test('the shipped files load into the exported tables, in file order', () => {
    const lexicon = readComplaintLexicon(DATA);
    assert.deepEqual(lexicon.complaint, COMPLAINT_PHRASES);
    assert.deepEqual(lexicon.narrative, NARRATIVE_PHRASES);
    assert.deepEqual(lexicon.words.service, SERVICE_WORDS);
    assert.deepEqual(COMPLAINT_PHRASES[0], ['delayed|delay|delays|delaying', -1.8]);
    for (const [list, words] of Object.entries(WORDS)) assert.ok(words.length > 0, list);
    // `{problem}` stands for the problem list's words.
    assert.equal(ABSENCE_PHRASES[0]![0], `no|zero|without ${WORDS.problem.join('|')}`);
    assert.ok(ABSENCE_PHRASES.every(([pattern]) => !pattern.includes('{')));
  });

  test('a weight of the wrong sign, a malformed pattern or an unknown list is refused with its line', () => {
    const row = '-1.8\tdelayed|delay|delays|delaying';
    const line = lineOf('complaint-phrases.tsv', row);
    const sign = editedCopy(DATA, 'complaint-phrases.tsv', (t) => t.replace(row, row.slice(1)));
    refused(() => readComplaintLexicon(sign), new RegExp(`complaint-phrases\\.tsv:${line}: .* at /weight`));
    const star = editedCopy(DATA, 'complaint-phrases.tsv', (t) => t.replace(row, '-1.8\t* delayed'));
    refused(() => readComplaintLexicon(star), new RegExp(`complaint-phrases\\.tsv:${line}: .* at /pattern`));
    const upper = editedCopy(DATA, 'complaint-phrases.tsv', (t) => t.replace(row, '-1.8\tDelayed'));
    refused(() => readComplaintLexicon(upper), new RegExp(`complaint-phrases\\.tsv:${line}: .* at /pattern`));
    const cells = editedCopy(DATA, 'complaint-phrases.tsv', (t) => t.replace(row, '-1.8'));
    refused(
      () => readComplaintLexicon(cells),
      new RegExp(`complaint-phrases\\.tsv:${line}: 1 cells where the header names 2`),
    );

    const absence = lineOf('absence-phrases.tsv', '1.3\tno|zero|without {problem}');
    const placeholder = editedCopy(DATA, 'absence-phrases.tsv', (t) =>
      t.replace('without {problem}', 'without {problems}'),
    );
    refused(
      () => readComplaintLexicon(placeholder),
      new RegExp(`absence-phrases\\.tsv:${absence}: .* at /pattern`),
    );
    const neutral = editedCopy(DATA, 'neutral-phrases.tsv', (t) =>
      t.replace('0\thelp desk', '-1\thelp desk'),
    );
    refused(
      () => readComplaintLexicon(neutral),
      new RegExp(`neutral-phrases\\.tsv:${lineOf('neutral-phrases.tsv', '0\thelp desk')}: .* at /weight`),
    );
    const tells = editedCopy(DATA, 'narrative-phrases.tsv', (t) =>
      t.replace('told\tsupposed to', 'said\tsupposed to'),
    );
    refused(
      () => readComplaintLexicon(tells),
      new RegExp(
        `narrative-phrases\\.tsv:${lineOf('narrative-phrases.tsv', 'told\tsupposed to')}: .* at /tells`,
      ),
    );

    const word = lineOf('words.tsv', 'sarcasm\tgreat');
    const list = editedCopy(DATA, 'words.tsv', (t) => t.replace('sarcasm\tgreat\n', 'sarcastic\tgreat\n'));
    refused(() => readComplaintLexicon(list), new RegExp(`words\\.tsv:${word}: .* at /list`));
    const spaced = editedCopy(DATA, 'words.tsv', (t) => t.replace('sarcasm\tgreat\n', 'sarcasm\tso great\n'));
    refused(() => readComplaintLexicon(spaced), new RegExp(`words\\.tsv:${word}: .* at /word`));
    const empty = editedCopy(DATA, 'words.tsv', (t) => t.replace(/^desk\t.*\n/gm, ''));
    refused(() => readComplaintLexicon(empty), /words\.tsv: no words in list desk/);
  });
});

describe('VADER port tables (vader-tables.json)', () => {
  test('the shipped file loads; a table of the wrong shape is refused with the field', () => {
    assert.deepEqual(readVaderTables(DATA).negations, NEGATE);
    const number = editedCopy(DATA, 'vader-tables.json', (t) => t.replace('"aint"', '7'));
    refused(() => readVaderTables(number), /vader-tables\.json: .* at \/negations\/0/);
    const idiom = editedCopy(DATA, 'vader-tables.json', (t) => t.replace('"the shit": 3', '"the shit": "3"'));
    refused(() => readVaderTables(idiom), /vader-tables\.json: .* at \/idioms\/the shit/);
  });
});
