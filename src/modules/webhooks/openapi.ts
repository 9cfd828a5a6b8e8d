// The OpenAPI `webhooks` section: every body Crestwatch POSTs to a subscriber, with the delivery headers.

import { USER_AGENT } from './delivery.ts';
import { CrisisBody, DigestBody, TestBody, TrendAlertBody, TrendLifecycleBody } from './schemas.ts';

const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

const HEADERS = [
  ['webhook-id', 'Equals the body’s `id`; the same on every retry and redelivery (dedupe on it).'],
  ['webhook-timestamp', 'Unix seconds of this attempt (fresh on every attempt).'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed with the secret’s ' +
      'decoded bytes (the part after `whsec_`, base64). Space-separated, one per secret during a rotation.',
  ],
  [
    'X-Webhook-Signature',
    '`sha256=<hex HMAC-SHA256 of the raw body>`, same key; comma-separated during a rotation.',
  ],
  ['User-Agent', `\`${USER_AGENT}\``],
] as const;

function operation(summary: string, description: string, schema: unknown) {
  return {
    post: {
      summary,
      description:
        `${description} Retried on network errors, timeouts (10 s), 429 and 5xx with exponential backoff ` +
        'and jitter (honouring `Retry-After`) for up to 24 h; 410 disables the subscription.',
      parameters: HEADERS.map(([name, text]) => ({
        name,
        in: 'header',
        required: true,
        description: text,
        schema: { type: 'string' },
      })),
      requestBody: { required: true, content: { 'application/json': { schema: plain(schema) } } },
      responses: {
        '2XX': { description: 'Received; any 2xx counts as delivered.' },
        '410': { description: 'Gone: the subscription is disabled.' },
      },
    },
  };
}

export function webhookEventsDocument(): Record<string, unknown> {
  return {
    'trend.alert.created': operation(
      'Trend alert',
      '`trend_velocity` subscriptions: a matching trend’s velocity score crossed `threshold_value` upward ' +
        '(at most once per `cooldown_seconds` per trend).',
      TrendAlertBody,
    ),
    'trend.lifecycle.changed': operation(
      'Trend lifecycle change',
      '`trend_lifecycle` subscriptions: a matching trend changed stage.',
      TrendLifecycleBody,
    ),
    // One entry per event name of the contract's Events table (the three share one body shape).
    ...Object.fromEntries(
      (
        [
          ['crisis.event.opened', 'Crisis event opened', 'one of your crisis events opened.'],
          ['crisis.event.escalated', 'Crisis event escalated', 'one of your crisis events rose in severity.'],
          [
            'crisis.event.resolved',
            'Crisis event resolved',
            'one of your crisis events subsided (the social surge ended, or the hazard feed ended the warning); its `status` stays yours to change.',
          ],
        ] as const
      ).map(([name, summary, when]) => [
        name,
        operation(summary, `\`crisis_event\` subscriptions: ${when}`, {
          ...plain(CrisisBody),
          title: `${summary.replaceAll(' ', '')}Webhook`,
          properties: {
            ...(plain(CrisisBody).properties as object),
            event: { type: 'string', enum: [name] },
          },
        }),
      ]),
    ),
    digest: operation(
      'Digest',
      '`delivery_mode: digest`: once per cooldown window when anything matched.',
      DigestBody,
    ),
    'webhook.test': operation('Test delivery', 'Sent by `POST …/webhooks/{id}/test`.', TestBody),
  };
}
