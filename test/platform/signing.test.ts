import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, secretKey, signatureHeaders } from '../../src/platform/signing.ts';

describe('delivery signatures', () => {
  test('secrets are whsec_ + base64 of 32 bytes', () => {
    const secret = generateWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(secretKey(secret).length, 32);
  });

  test('the standardwebhooks package and a plain HMAC both verify; a tampered body fails both', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ id: 'evt_1', event: 'trend.alert.created' });
    const ts = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders([secret], 'evt_1', ts, body);
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    const hex = createHmac('sha256', secretKey(secret)).update(body).digest('hex');
    assert.equal(headers['x-webhook-signature'], `sha256=${hex}`);
    const tampered = body.replace('evt_1', 'evt_2');
    assert.throws(() => new Webhook(secret).verify(tampered, headers));
    assert.notEqual(createHmac('sha256', secretKey(secret)).update(tampered).digest('hex'), hex);
  });

  test('during a rotation either secret verifies', () => {
    const current = generateWebhookSecret();
    const previous = generateWebhookSecret();
    const body = '{"id":"evt_9"}';
    const headers = signatureHeaders([current, previous], 'evt_9', Math.floor(Date.now() / 1000), body);
    for (const secret of [current, previous]) {
      assert.ok(new Webhook(secret).verify(body, headers));
      const hex = createHmac('sha256', secretKey(secret)).update(body).digest('hex');
      assert.ok(headers['x-webhook-signature']!.split(',').includes(`sha256=${hex}`));
    }
    assert.throws(() => new Webhook(generateWebhookSecret()).verify(body, headers));
  });
});
