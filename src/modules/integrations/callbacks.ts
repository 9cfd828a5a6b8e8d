// The public OAuth redirect targets. GET shows which Crestwatch account would be connected and a form; only
// the form's POST (`application/x-www-form-urlencoded`, parsed in this plugin alone, so every other route
// keeps answering 415 to non-JSON bodies) uses up the state and stores tokens. Browsers (Accept: text/html)
// get HTML pages for failures too; API clients get problem+json.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { StrictObject } from '../../platform/schemas.ts';
import type { OAuthService } from './oauth.ts';
import { confirmPage, PAGE_CSP, resultPage } from './pages.ts';
import type { ProviderId } from './providers/types.ts';

const FORM_LIMIT = 16 * 1024;

const CallbackQuery = Type.Object(
  {
    code: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, description: 'The authorization code.' }),
    ),
    state: Type.String({ minLength: 1, maxLength: 512, description: 'The state from the `auth` route.' }),
    error: Type.Optional(
      Type.String({ maxLength: 200, description: 'Set by the provider when the user declined.' }),
    ),
    error_description: Type.Optional(Type.String({ maxLength: 1000 })),
    error_reason: Type.Optional(Type.String({ maxLength: 200 })),
    error_code: Type.Optional(Type.String({ maxLength: 50 })),
    error_message: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

const ConfirmBody = StrictObject({
  state: Type.String({ minLength: 1, maxLength: 512 }),
  code: Type.String({ minLength: 1, maxLength: 2048 }),
  confirm_token: Type.String({ minLength: 1, maxLength: 2048 }),
});

const PlatformParams = Type.Object(
  { platform: Type.String({ minLength: 1, maxLength: 64, description: 'Ad provider id (`social_ads`).' }) },
  { additionalProperties: false },
);

const HtmlPage = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});

function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/i.test(String(request.headers.accept ?? ''));
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('Content-Security-Policy', PAGE_CSP)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** Failures a browser can act on become an HTML page with the same status; everything else stays problem+json. */
function failure(request: FastifyRequest, reply: FastifyReply, error: unknown, label: string) {
  if (error instanceof ApiError && wantsHtml(request) && (error.status < 500 || error.status === 503)) {
    if (error.extra.headers) for (const [k, v] of Object.entries(error.extra.headers)) reply.header(k, v);
    return sendPage(
      reply,
      error.status,
      resultPage({ ok: false, title: `The ${label} was not connected`, message: error.detail }),
    );
  }
  throw error;
}

function parseForm(
  _request: FastifyRequest,
  body: string | Buffer,
  done: (err: Error | null, body?: unknown) => void,
): void {
  try {
    done(null, formFields(body.toString()));
  } catch (error) {
    done(error as Error);
  }
}

function formFields(text: string): Record<string, unknown> {
  if (text.includes('\u0000') || /%00/i.test(text))
    throw badRequest('Form fields must not contain NUL characters.');
  const out = new Map<string, unknown>();
  for (const [key, value] of new URLSearchParams(text)) {
    // A repeated field becomes a list, which validation then refuses.
    const prior = out.get(key);
    out.set(key, prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value]);
  }
  for (const key of out.keys()) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
      throw badRequest(`The form field ${key} is not accepted.`);
    }
  }
  return Object.fromEntries(out);
}

export async function callbackRoutes(app: App, oauth: OAuthService): Promise<void> {
  await app.register(async (instance) => {
    const scope = instance.withTypeProvider<TypeBoxTypeProvider>();
    // Every answer of these public browser targets carries the page CSP, problem+json ones included
    // (a validation failure before the handler is not rendered as a page).
    scope.addHook('onSend', async (_request, reply, payload) => {
      if (!reply.hasHeader('content-security-policy')) reply.header('Content-Security-Policy', PAGE_CSP);
      return payload;
    });
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      parseForm,
    );

    const routes: {
      path: string;
      provider: (params: { platform?: string }) => ProviderId;
      params?: boolean;
    }[] = [
      { path: '/api/integrations/chat/callback', provider: () => 'chat' },
      { path: '/api/integrations/forum-ads/callback', provider: () => 'forum_ads' },
      {
        path: '/api/integrations/ads/:platform/callback',
        params: true,
        provider: ({ platform }) => {
          if (platform !== 'social_ads')
            throw notFound(`There is no ad provider called ${JSON.stringify(platform)}.`);
          return 'social_ads';
        },
      },
    ];

    for (const route of routes) {
      scope.get(
        route.path,
        {
          config: { access: 'public' },
          schema: {
            tags: ['integrations'],
            summary: 'OAuth redirect target: confirmation page',
            description:
              'Public (the browser arrives without a key). Checks `state` and answers an HTML page naming the ' +
              'Crestwatch account (email) that would be connected, with a form that POSTs `state`, `code` and ' +
              '`confirm_token` back here. Stores nothing. A wrong, used or expired state → 400.',
            ...(route.params ? { params: PlatformParams } : {}),
            querystring: CallbackQuery,
            response: { 200: HtmlPage('The confirmation page (text/html).') },
          },
        },
        async (request, reply) => {
          const id = route.provider(request.params as { platform?: string });
          const adapter = oauth.adapter(id);
          try {
            const { code, state, error } = request.query;
            if (error) {
              throw new ApiError(
                400,
                'authorization_denied',
                `The ${adapter.label} authorization was declined (${error.slice(0, 100)}).`,
              );
            }
            if (!code) throw badRequest('The callback has no `code`.', 'code');
            const pending = await oauth.pending(id, state, code);
            return sendPage(
              reply,
              200,
              confirmPage({
                providerLabel: adapter.label,
                email: pending.email,
                state,
                code,
                confirmToken: pending.confirmToken,
              }),
            );
          } catch (error) {
            return failure(request, reply, error, adapter.label);
          }
        },
      );

      scope.post(
        route.path,
        {
          config: { access: 'public' },
          schema: {
            tags: ['integrations'],
            summary: 'OAuth redirect target: confirm and connect',
            description:
              'The confirmation form posts here (`application/x-www-form-urlencoded`). Uses up the state, ' +
              'exchanges the code with the provider, stores the tokens encrypted and answers a small HTML page. ' +
              'A wrong, used or expired state → 400 and nothing stored; the provider refusing → 400 with its ' +
              'reason; the provider unreachable → 503.',
            consumes: ['application/x-www-form-urlencoded'],
            ...(route.params ? { params: PlatformParams } : {}),
            body: ConfirmBody,
            response: { 200: HtmlPage('Connected (text/html).') },
          },
        },
        async (request, reply) => {
          const id = route.provider(request.params as { platform?: string });
          const adapter = oauth.adapter(id);
          try {
            const result = await oauth.complete(id, request.body, String(request.id));
            return sendPage(
              reply,
              200,
              resultPage({
                ok: true,
                title: `The ${adapter.label} is connected`,
                message:
                  `The ${adapter.label}${result.accountName ? ` account ${result.accountName}` : ''} is now ` +
                  `connected to the Crestwatch account ${result.email}.`,
              }),
            );
          } catch (error) {
            return failure(request, reply, error, adapter.label);
          }
        },
      );
    }
  });
}
