// The demo simulator's topics, platform weights and templates are data files, checked when they are read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEMO_TOPICS, readDemoData } from '../../../../src/modules/signals/sources/demo-topics.ts';
import { DataFileError } from '../../../../src/platform/data-files.ts';
import { editedCopy } from '../../../helpers/data-copy.ts';

const DATA = new URL('../../../../src/modules/signals/sources/data/', import.meta.url);

describe('demo simulator data (data files)', () => {
  test('the shipped files load; a profile name becomes its weights', () => {
    const data = readDemoData(DATA);
    assert.deepEqual(data.topics, DEMO_TOPICS);
    const tech = data.topics.find((t) => t.id === 'lumen-nimbus')!;
    assert.deepEqual(tech.platforms, { hackernews: 20, reddit: 25 });
    for (const topic of data.topics) assert.notEqual(typeof topic.platforms, 'string', topic.id);
  });

  test('a malformed entry is refused with the file and the field named', () => {
    const mood = editedCopy(DATA, 'demo-topics.json', (t) => t.replace('"mood": 0.2', '"mood": 2'));
    assert.throws(
      () => readDemoData(mood),
      (error: Error) => {
        assert.ok(error instanceof DataFileError);
        assert.match(error.message, /demo-topics\.json: .* at \/0\/mood/);
        return true;
      },
    );
    const profile = editedCopy(DATA, 'demo-topics.json', (t) =>
      t.replace('"platforms": "tech"', '"platforms": "techy"'),
    );
    assert.throws(() => readDemoData(profile), /demo-topics\.json: platforms "techy" at \/0 is no profile/);
    const platform = editedCopy(DATA, 'demo-platforms.json', (t) => t.replace('"x": 30', '"twitter": 30'));
    assert.throws(() => readDemoData(platform), /demo-platforms\.json: .* at \/default/);
  });
});
