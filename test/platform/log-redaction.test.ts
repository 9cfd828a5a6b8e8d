import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactUrl } from '../../src/platform/log-redaction.ts';

const KEY = `cw_${'A1b2C3d4E5'.repeat(4)}`;

test('a secret query value is redacted however its name is spelled', () => {
  assert.equal(redactUrl(`/ws/trends?token=${KEY}&trends=a`), '/ws/trends?token=[redacted]&trends=a');
  assert.equal(redactUrl(`/ws/trends?tok%65n=${KEY}`), '/ws/trends?tok%65n=[redacted]');
  assert.equal(redactUrl('/ws/trends?TOKEN=anything-the-operator-chose'), '/ws/trends?TOKEN=[redacted]');
  assert.equal(redactUrl('/cb?code=abc&state=xyz&other=1'), '/cb?code=[redacted]&state=[redacted]&other=1');
});

test('a value carrying a secret parameter of its own, or an API key anywhere, is redacted', () => {
  assert.equal(redactUrl(`/ws/trends?trends=a;token=${KEY}`), '/ws/trends?trends=[redacted]');
  assert.equal(redactUrl(`/ws/trends?trends=a%3Btoken%3Dsecret`), '/ws/trends?trends=[redacted]');
  assert.equal(redactUrl(`/api/x/${KEY}?q=1`), '/api/x/[redacted]?q=1');
  assert.equal(redactUrl(`/ws/trends?t=${KEY}`), '/ws/trends?t=[redacted]');
});

test('ordinary URLs are logged as they are', () => {
  for (const url of [
    '/api/trends?limit=20&sort_by=velocity',
    '/status',
    '/api/trends?search=state%20of%20play',
  ]) {
    assert.equal(redactUrl(url), url);
  }
});
