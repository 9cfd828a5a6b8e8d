// Reading n8n's workflow JSON: which Webhook triggers a push can use, and their production URLs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  normaliseBaseUrl,
  productionWebhookUrl,
  providerFailure,
  webhookTriggers,
} from '../../../src/modules/integrations/workflow/n8n.ts';
import { OutboundError } from '../../../src/platform/outbound.ts';

test('webhook triggers: enabled webhook nodes only, GET by default, lists with multiple methods', () => {
  const triggers = webhookTriggers([
    { type: 'n8n-nodes-base.webhook', parameters: { path: '/alerts', httpMethod: 'POST' } },
    { type: 'n8n-nodes-base.webhook', parameters: { path: 'off', httpMethod: 'POST' }, disabled: true },
    { type: 'n8n-nodes-base.webhook', parameters: { path: 'plain' } },
    {
      type: 'n8n-nodes-base.webhook',
      parameters: { httpMethod: ['GET', 'post'], multipleMethods: true },
      webhookId: 'abc-123',
    },
    { type: 'n8n-nodes-base.httpRequest', parameters: { path: 'nope' } },
    null,
  ]);
  assert.deepEqual(triggers, [
    { path: 'alerts', methods: ['POST'] },
    { path: 'plain', methods: ['GET'] },
    { path: 'abc-123', methods: ['GET', 'POST'] },
  ]);
  assert.deepEqual(webhookTriggers(undefined), []);
});

test('production URLs and base URL normalisation', () => {
  assert.equal(
    productionWebhookUrl('https://n8n.example.com', 'a b/c'),
    'https://n8n.example.com/webhook/a%20b/c',
  );
  assert.equal(normaliseBaseUrl(new URL('https://n8n.example.com/')), 'https://n8n.example.com');
  assert.equal(normaliseBaseUrl(new URL('https://x.example.com/n8n/api/v1/')), 'https://x.example.com/n8n');
});

test('a refused destination names the request field when connecting, the saved connection otherwise', () => {
  const refused = new OutboundError('refused', '127.0.0.1 is a loopback address.');
  const connecting = providerFailure(refused, 'the key check', 'api_base_url');
  assert.equal(connecting.status, 400);
  assert.equal(connecting.code, 'destination_not_allowed');
  assert.deepEqual(
    connecting.extra.errors?.map((e) => e.path),
    ['api_base_url'],
  );
  // A push or a workflow list on a stored connection: no field of this request is at fault.
  const stored = providerFailure(refused, 'the push');
  assert.equal(stored.code, 'destination_not_allowed');
  assert.equal(stored.extra.errors, undefined);
  assert.match(
    stored.detail,
    /^The connection's api_base_url is no longer an allowed destination: .*Connect again/,
  );
});
