import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  MEMO_LIMIT,
  tokenize,
  tokenizerMemory,
  WINK_RECYCLE_CHUNKS,
} from '../../../src/modules/text/tokens.ts';
import { newWink as winkInstance } from '../../../src/modules/text/wink.ts';

// A wink-nlp instance of the test's own: the tokens the memo hands out must be the ones wink gives the whole text.
const newWink = () => winkInstance([]);
const wink = newWink();

// wink remembers the out-of-vocabulary tokens it met, and they can change how it splits a chunk later
// ("today's..." leaves "today's" a lexeme, read whole from then on): compare instances with the same history.
function winkTokens(text: string, instance = wink) {
  const tokens = instance.readDoc(text).tokens();
  return {
    values: tokens.out(instance.its.value) as string[],
    types: tokens.out(instance.its.type) as string[],
    spaces: tokens.out(instance.its.precedingSpaces) as string[],
  };
}

const TEXTS = [
  "I cannot go, don't!  Gonna see U.S. officials at 5pm :) #Fire @bob http://x.com/a?b=1 e-mail me $5.00",
  'Line one.\nLine two\t\ttab  x\u00a0y and\u2009thin\u202fspaces',
  "wasn't it?!... Mr. Smith's dog's bone (Reuters) \"quoted\" end.)",
  'Metro-North, Lac-Mégantic, state-of-the-art COVID-19 F-16s AT&T Q&A 100% 1,000 3.5m #1 24/7',
  'RT @ManuAhia: E anche oggi non è un buongiorno... Il #terremoto è la prova 😀😀 www.x.org/p',
  "THANK YOU: Dozens of fire trucks travelled from across NSW to help today's... http://t.co/dDc3b3Sxyh",
  '   leading spaces, trailing spaces   ',
  '\r\n\r\nCRLF lines\r\nand a tab\tbetween',
  '',
  // An ideographic space is no separator of wink's: it stays inside a chunk, and wink drops it from the tokens.
  'Quake 8:42am\u3000http://t.co/mwsMLQ3Z near Sendai\u3000\u3000now M3.5 発生',
];

describe('tokenize (wink-nlp tokens through the chunk memo)', () => {
  test('gives the values, types and preceding spaces wink gives the whole text', () => {
    for (const text of TEXTS) assert.deepEqual(tokenize(text), winkTokens(text), JSON.stringify(text));
  });

  test('a chunk seen before gives the same tokens again, wherever it stands', () => {
    const first = tokenize("Don't panic: #Quake near Tokyo.");
    const again = tokenize("Don't panic: #Quake near Tokyo.");
    assert.deepEqual(again, first);
    // The same chunks after other spacing: only the spacing differs.
    const spaced = tokenize("Don't    panic:\u00a0#Quake near\nTokyo.");
    assert.deepEqual(spaced.values, [...first.values.slice(0, 6), '\n', ...first.values.slice(6)]);
    assert.deepEqual(spaced.spaces, ['', '', '    ', '', '\u00a0', ' ', '', '', '']);
  });

  test('agrees with wink on arbitrary mixes of words, punctuation, digits, emoji and spacing', () => {
    const pieces = [
      'the',
      'Crestwatch',
      "isn't",
      'U.S.',
      'e.g.',
      '#Tag',
      '@user',
      'https://t.co/x1',
      '5pm',
      '$',
      '3.14',
      '1990s',
      '2nd',
      ':)',
      '😀',
      '...',
      '!',
      '?',
      ',',
      '"',
      '(',
      ')',
      '-',
      '—',
      "'s",
      'n’t',
      'café',
      'x2',
      ' ',
      '  ',
      '\u00a0',
      '\n',
      '\t',
      '\r\n',
      '\u3000',
      '地震',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        assert.deepEqual(tokenize(text), winkTokens(text), JSON.stringify(text));
      }),
      { numRuns: 500, seed: 20_261_201 },
    );
  });
});

describe('tokenizer memory', () => {
  test('the memo and wink instance stay bounded however many distinct chunks arrive, and tokens stay right', () => {
    const words = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `w${(from + i).toString(36)}x`).join(' ');
    let peakMemo = 0;
    let recycled = false;
    let lastRead = 0;
    for (let from = 0; from < WINK_RECYCLE_CHUNKS + 10_000; from += 5_000) {
      tokenize(words(from, 5_000));
      const { memoChunks, winkChunks } = tokenizerMemory();
      peakMemo = Math.max(peakMemo, memoChunks);
      if (winkChunks < lastRead) recycled = true;
      lastRead = winkChunks;
    }
    assert.ok(peakMemo <= MEMO_LIMIT, `memo held ${peakMemo} chunks`);
    assert.ok(recycled, 'the wink instance was replaced');
    // The replaced instance reads as a new one does.
    const text = "After today's quake, #Tokyo's trains run again: 5pm update at https://t.co/a1 :)";
    assert.deepEqual(tokenize(text), winkTokens(text, newWink()));
  });
});
