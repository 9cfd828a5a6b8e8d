import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { signalFingerprint, textFingerprint } from '../../../src/modules/text/fingerprint.ts';

describe('text fingerprints', () => {
  test('copies that differ in links, handles, counters, case and punctuation have one fingerprint', () => {
    const a = textFingerprint('RT @amy: Quillmont GIVEAWAY, click now!! https://spam.example/1');
    const b = textFingerprint('@bob quillmont giveaway click now #2 https://spam.example/2');
    assert.equal(a, 'quillmont giveaway click now');
    assert.equal(b, a);
    assert.notEqual(signalFingerprint('Quillmont giveaway'), signalFingerprint('Quillmont opens a store'));
  });

  test("an ASCII text's fingerprint hash is the hash of its fingerprint text, whatever its links, handles and RTs", () => {
    // FNV-1a of textFingerprint: what signalFingerprint gives every text; ASCII ones take a one-pass path.
    const fnv = (text: string) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
      return h >>> 0;
    };
    for (const [text, title] of [
      ['RT @amy: Quillmont GIVEAWAY, click now!! https://spam.example/1', null],
      ['rt:Breaking www.example.com/a?b news @x@y me@example.com', 'Title: RT'],
      ['  RT_1 rtx Rt http://a.b/c-d@e WWW. www.x', null],
      ['Café fire in Zürich @zoë https://t.co/x', 'Non-ASCII takes the patterns'],
    ] as const) {
      assert.equal(
        signalFingerprint(text, title),
        fnv(textFingerprint(title ? `${title} ${text}` : text)),
        text,
      );
    }
    const pieces = [
      'rt',
      'RT',
      ':',
      ' ',
      '\t',
      '@',
      '@a',
      '_',
      'abc',
      'Www.',
      'www.',
      'http://',
      'HTTPS://',
      'a.b',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces, '-', '+', '1', '://', '.', 'r', 't', '#'), { maxLength: 14 }),
        (parts) => {
          const text = parts.join('');
          assert.equal(signalFingerprint(text), fnv(textFingerprint(text)), JSON.stringify(text));
        },
      ),
      { numRuns: 5000, seed: 20_261_201 },
    );
  });
});
