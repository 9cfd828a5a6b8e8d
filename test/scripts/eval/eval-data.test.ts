// The evaluation's customer posts and crisis-scenario words are data files, checked when they are read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readScenarioWords, scenarios } from '../../../scripts/eval/crisis-scenarios.ts';
import { CUSTOMER_POSTS, POST_SETS, readPosts } from '../../../scripts/eval/customer-posts.ts';
import { DataFileError } from '../../../src/platform/data-files.ts';
import { editedCopy } from '../../helpers/data-copy.ts';

const DATA = new URL('../../../scripts/eval/data/', import.meta.url);

describe('evaluation data (data files)', () => {
  test('every set of customer posts loads, in POST_SETS order, none empty', () => {
    const posts = readPosts(DATA);
    assert.deepEqual(posts, CUSTOMER_POSTS);
    assert.deepEqual([...new Set(posts.map((p) => p.set))], [...POST_SETS]);
  });

  test('the scenario words load, with a topic for every scenario', () => {
    const words = readScenarioWords(DATA);
    const built = scenarios();
    assert.ok(
      words.topics.length >= built.length,
      `${words.topics.length} topics, ${built.length} scenarios`,
    );
    assert.equal(new Set(built.map((s) => s.topic)).size, built.length);
  });

  test('a malformed entry is refused with the file and the line or field named', () => {
    const label = editedCopy(DATA, 'customer-posts.held-out-6.jsonl', (t) =>
      t.replace(/^(.*\n.*\n)\{"label":"negative"/, '$1{"label":"angry"'),
    );
    assert.throws(
      () => readPosts(label),
      (error: Error) => {
        assert.ok(error instanceof DataFileError);
        assert.match(error.message, /customer-posts\.held-out-6\.jsonl:3: .* at \/label/);
        return true;
      },
    );
    const filler = editedCopy(DATA, 'crisis-scenario-words.json', (t) => t.replace('"today"', '7'));
    assert.throws(() => readScenarioWords(filler), /crisis-scenario-words\.json: .* at \/filler\/0/);
  });
});
