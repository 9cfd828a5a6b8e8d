// Subjects: a user's interest keys linked by the posts they share, and their pooled mentions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SUBJECT_LINK_ACCOUNTS } from '../../../src/modules/crisis/scoring.ts';
import { type KeyedMention, linkSubjects, poolMentions } from '../../../src/modules/crisis/subjects.ts';
import { simhash } from '../../../src/modules/text/simhash.ts';

let nextId = 1;

/** One stored mention of `key` for post `signal`. */
function mention(signal: number, text: string, author: string, source = 'x'): KeyedMention {
  return {
    id: nextId++,
    signal,
    origin: source,
    source,
    author,
    compound: 0,
    alarm: 1,
    terms: ['explosion'],
    domains: [],
    engagement: 0,
    simhash: simhash(text),
    observed_at: signal * 1000,
  };
}

/** Mentions by key, from posts that each mention some keys. */
function windows(posts: { signal: number; keys: string[]; text: string; author: string }[], order: string[]) {
  const byKey = new Map<string, KeyedMention[]>(order.map((k) => [k, []]));
  for (const p of posts) for (const k of p.keys) byKey.get(k)!.push(mention(p.signal, p.text, p.author));
  return byKey;
}

const text = (i: number) =>
  `report ${i}: ${['explosion at the quay', 'smoke over the docks', 'crews evacuate the pier', 'tanker listing badly'][i % 4]} near berth ${i * 7}`;

describe('subjects', () => {
  it('keys whose posts come from two independent accounts are one subject, transitively', () => {
    const byKey = windows(
      [
        { signal: 1, keys: ['harbor', 'tanker'], text: text(1), author: 'a' },
        { signal: 2, keys: ['harbor', 'tanker'], text: text(2), author: 'b' },
        { signal: 3, keys: ['tanker', 'port authority'], text: text(3), author: 'c' },
        { signal: 4, keys: ['tanker', 'port authority'], text: text(4), author: 'd' },
        { signal: 5, keys: ['harbor'], text: text(5), author: 'e' },
        { signal: 6, keys: ['football'], text: text(6), author: 'f' },
      ],
      ['harbor', 'tanker', 'port authority', 'football'],
    );
    const subjects = linkSubjects(byKey);
    assert.deepEqual(
      subjects.map((s) => s.keys),
      [['harbor', 'tanker', 'port authority'], ['football']],
    );
    assert.deepEqual(subjects[0].links, [
      { keys: ['harbor', 'tanker'], accounts: 2 },
      { keys: ['tanker', 'port authority'], accounts: 2 },
    ]);
    assert.deepEqual(subjects[1].links, []);
  });

  it('posts of one account, or one text shared by many, never link keys', () => {
    assert.equal(SUBJECT_LINK_ACCOUNTS, 2);
    const oneAccount = windows(
      Array.from({ length: 12 }, (_, i) => ({
        signal: i + 1,
        keys: ['harbor', 'tanker', 'pier'],
        text: text(i),
        author: 'ranter',
      })),
      ['harbor', 'tanker', 'pier'],
    );
    assert.deepEqual(
      linkSubjects(oneAccount).map((s) => s.keys),
      [['harbor'], ['tanker'], ['pier']],
    );
    const copies = windows(
      Array.from({ length: 12 }, (_, i) => ({
        signal: i + 1,
        keys: ['harbor', 'tanker'],
        text: 'Tanker explosion in the harbor, share before they delete this',
        author: `bot${i}`,
      })),
      ['harbor', 'tanker'],
    );
    assert.deepEqual(
      linkSubjects(copies).map((s) => s.keys),
      [['harbor'], ['tanker']],
    );
  });

  it('pooled mentions count each post once and know the keys it mentions', () => {
    const byKey = windows(
      [
        { signal: 1, keys: ['harbor', 'tanker'], text: text(1), author: 'a' },
        { signal: 2, keys: ['harbor'], text: text(2), author: 'b' },
        { signal: 3, keys: ['tanker'], text: text(3), author: 'c' },
      ],
      ['harbor', 'tanker'],
    );
    const { mentions, keysOf } = poolMentions(byKey);
    assert.deepEqual(mentions.map((m) => m.signal).sort(), [1, 2, 3]);
    assert.deepEqual(keysOf.get(1), ['harbor', 'tanker']);
    assert.deepEqual(keysOf.get(3), ['tanker']);
  });
});
