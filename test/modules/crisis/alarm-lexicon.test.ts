// The crisis-language lexicon and its idioms are data files, checked when they are read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { alarm, readAlarmLexicon } from '../../../src/modules/crisis/alarm.ts';
import { DataFileError } from '../../../src/platform/data-files.ts';
import { editedCopy } from '../../helpers/data-copy.ts';

const DATA = new URL('../../../src/modules/crisis/data/', import.meta.url);

describe('crisis alarm lexicon (data files)', () => {
  test('the shipped files load: every category has strong and weak terms, and the idioms are read', () => {
    const { lexicon, idioms } = readAlarmLexicon(DATA);
    assert.deepEqual(Object.keys(lexicon), ['hazard', 'harm', 'emergency', 'disruption']);
    for (const [category, { strong, weak }] of Object.entries(lexicon)) {
      assert.ok(strong.length > 0 && weak.length > 0, category);
    }
    assert.equal(lexicon.hazard.strong[0], 'earthquake*');
    assert.ok(idioms.includes('had a blast'));
    assert.deepEqual(alarm('We had a blast at the launch').terms, []);
  });

  test('a malformed row is refused with the file and the line named', () => {
    const category = editedCopy(DATA, 'alarm-terms.tsv', (t) => t.replace('quake\thazard', 'quake\tweather'));
    assert.throws(
      () => readAlarmLexicon(category),
      (error: Error) => {
        assert.ok(error instanceof DataFileError);
        assert.match(error.message, /alarm-terms\.tsv:3: .* at \/category/);
        return true;
      },
    );
    const cells = editedCopy(DATA, 'alarm-terms.tsv', (t) =>
      t.replace('quake\thazard\tstrong', 'quake\thazard'),
    );
    assert.throws(() => readAlarmLexicon(cells), /alarm-terms\.tsv:3: 2 cells where the header names 3/);
    const idiom = editedCopy(DATA, 'alarm-idioms.tsv', (t) =>
      t.replace('killed it\n', 'killed it\tstrong\n'),
    );
    assert.throws(() => readAlarmLexicon(idiom), /alarm-idioms\.tsv:2: 2 cells where the header names 1/);
  });
});
