// SecretBox: what it seals opens only unchanged and only with the same key.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SecretBox } from '../../src/platform/crypto.ts';

const box = new SecretBox('a-secret-key-for-tests');
const PARTS = ['iv', 'tag', 'body'] as const;

/** The sealed value with one bit of one part (1 = iv, 2 = tag, 3 = body) flipped. */
function flipped(sealed: string, part: number, byte = 0): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[byte]! ^= 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('SecretBox', () => {
  test('opens what it sealed, for empty, ASCII and non-ASCII text', () => {
    for (const plain of ['', 'xoxb-123-token', 'ümlaut ✓ 日本語', 'x'.repeat(10_000)]) {
      const sealed = box.encrypt(plain);
      assert.match(sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]*$/);
      if (plain) assert.ok(!sealed.includes(plain), 'the plain text does not appear in the sealed value');
      assert.equal(box.decrypt(sealed), plain);
    }
  });

  test('sealing the same text twice gives different values (fresh iv)', () => {
    const a = box.encrypt('same');
    const b = box.encrypt('same');
    assert.notEqual(a, b);
    assert.equal(box.decrypt(a), 'same');
    assert.equal(box.decrypt(b), 'same');
  });

  test('a value with one flipped bit in its iv, tag or body is refused', () => {
    const sealed = box.encrypt('the access token');
    PARTS.forEach((name, i) => {
      const tampered = flipped(sealed, i + 1);
      assert.notEqual(tampered, sealed);
      assert.throws(() => box.decrypt(tampered), Error, `tampered ${name}`);
    });
    // The last byte of the body too: every byte is authenticated, not just the first.
    const body = Buffer.from(sealed.split('.')[3]!, 'base64url');
    assert.throws(() => box.decrypt(flipped(sealed, 3, body.length - 1)), Error);
    assert.equal(box.decrypt(sealed), 'the access token', 'the original still opens');
  });

  test('a truncated auth tag is refused (GCM would accept a short one unless told the length)', () => {
    const sealed = box.encrypt('the access token');
    const parts = sealed.split('.');
    for (const length of [4, 8, 12, 15]) {
      const short = [...parts];
      short[2] = Buffer.from(parts[2]!, 'base64url').subarray(0, length).toString('base64url');
      assert.throws(() => box.decrypt(short.join('.')), Error, `a ${length}-byte tag`);
    }
  });

  test('another key cannot open it', () => {
    const sealed = box.encrypt('the access token');
    assert.throws(() => new SecretBox('another-secret-key').decrypt(sealed), Error);
    assert.equal(new SecretBox('a-secret-key-for-tests').decrypt(sealed), 'the access token');
  });

  test('a malformed value is refused', () => {
    const [, iv, tag, body] = box.encrypt('text').split('.');
    for (const bad of [
      '',
      'not a sealed value',
      `v2.${iv}.${tag}.${body}`,
      `v1.${iv}.${tag}`,
      `v1..${tag}.${body}`,
      `v1.${iv}..${body}`,
      `${iv}.${tag}.${body}`,
    ]) {
      assert.throws(() => box.decrypt(bad), Error, JSON.stringify(bad));
    }
  });
});
