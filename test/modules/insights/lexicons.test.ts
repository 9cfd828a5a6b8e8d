// The analyzer's word lists and category tables are data files, checked when they are read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CATEGORY_COMMUNITIES,
  COMPLAINT_TOPICS,
  profileFor,
  readLexicons,
} from '../../../src/modules/insights/lexicons.ts';
import { DataFileError } from '../../../src/platform/data-files.ts';
import { editedCopy } from '../../helpers/data-copy.ts';

const DATA = new URL('../../../src/modules/insights/data/', import.meta.url);

describe('insight lexicons (data files)', () => {
  test('the shipped files load, and every category with a profile has communities', () => {
    const lexicons = readLexicons(DATA);
    assert.deepEqual(
      lexicons.complaintTopics.map((t) => t.label),
      COMPLAINT_TOPICS.map((t) => t.label),
    );
    assert.deepEqual(Object.keys(lexicons.categoryProfiles), Object.keys(CATEGORY_COMMUNITIES));
    assert.deepEqual(profileFor('No Such Category/Leaf'), lexicons.categoryProfiles.General);
  });

  test('a malformed entry is refused with the file and the field named', () => {
    const emptyCue = editedCopy(DATA, 'complaint-topics.json', (t) => t.replace('"outage"', '""'));
    assert.throws(
      () => readLexicons(emptyCue),
      (error: Error) => {
        assert.ok(error instanceof DataFileError);
        assert.match(error.message, /complaint-topics\.json: .* at \/0\/cues\/0/);
        return true;
      },
    );
    const noFallback = editedCopy(DATA, 'category-profiles.json', (t) =>
      t.replace('"General"', '"Elsewhere"'),
    );
    assert.throws(() => readLexicons(noFallback), /category-profiles\.json: no General entry/);
    const textCpc = editedCopy(DATA, 'category-profiles.json', (t) =>
      t.replace('"baseCpcUsd": 3.8', '"baseCpcUsd": "3.8"'),
    );
    assert.throws(() => readLexicons(textCpc), /category-profiles\.json: .* at \/Technology\/baseCpcUsd/);
  });
});
