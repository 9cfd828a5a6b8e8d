// The team chat adapter, in Slack's wire format: OAuth v2 (`/oauth/v2/authorize`, `oauth.v2.access`, token
// rotation with `grant_type=refresh_token`), `conversations.list` with cursor paging, `chat.postMessage`
// with Block Kit, `auth.revoke`; errors are HTTP 200 `{ok:false, error}` and 429 with `Retry-After`.
import type { ProviderConfig } from '../../../config.ts';
import { ApiError } from '../../../platform/errors.ts';
import {
  callProvider,
  isObject,
  type ProviderAnswer,
  providerRefused,
  providerUnavailable,
  retryAfterSeconds,
  str,
} from './http.ts';
import { type OAuthAdapter, TokenRejectedError, type TokenSet } from './types.ts';

const LABEL = 'chat tool';
const CHAT_SCOPES = 'channels:read,groups:read,chat:write';
/** `ok:false` errors that mean the token is gone for good: the connection is marked broken. */
const REVOKED_ERRORS = new Set([
  'invalid_auth',
  'token_revoked',
  'account_inactive',
  'token_expired',
  'not_authed',
]);
const MAX_CHANNEL_PAGES = 20;

export class ChatRateLimitedError extends Error {
  override readonly name = 'ChatRateLimitedError';
  constructor(readonly retryAfterSeconds: number) {
    super(`rate limited for ${retryAfterSeconds} s`);
  }
}

interface ChatChannel {
  id: string;
  name: string;
  is_private: boolean;
}

export interface ChatMessage {
  text: string;
  blocks: unknown[];
}

export class SlackClient implements OAuthAdapter {
  readonly id = 'chat' as const;
  readonly label = LABEL;
  readonly callbackPath = '/api/integrations/chat/callback';
  readonly pkce = false;

  constructor(
    private readonly config: ProviderConfig,
    private readonly now: () => number,
  ) {}

  configured(): boolean {
    return Boolean(this.config.clientId && this.config.clientSecret);
  }

  authorizationUrl({ state, redirectUri }: { state: string; redirectUri: string }): string {
    const url = new URL(`${this.config.authBaseUrl}/oauth/v2/authorize`);
    url.searchParams.set('client_id', this.config.clientId ?? '');
    url.searchParams.set('scope', CHAT_SCOPES);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    return url.toString();
  }

  async exchange({ code, redirectUri }: { code: string; redirectUri: string }): Promise<TokenSet> {
    const body = await this.api(
      'oauth.v2.access',
      null,
      {
        client_id: this.config.clientId ?? '',
        client_secret: this.config.clientSecret ?? '',
        code,
        redirect_uri: redirectUri,
      },
      [code],
    );
    return this.tokenSet(body);
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    const body = await this.api(
      'oauth.v2.access',
      null,
      {
        client_id: this.config.clientId ?? '',
        client_secret: this.config.clientSecret ?? '',
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      },
      [refreshToken],
    );
    return this.tokenSet(body);
  }

  async revoke({ accessToken }: { accessToken: string }): Promise<void> {
    await this.api('auth.revoke', accessToken, {});
  }

  /** Every channel the token can see, following `response_metadata.next_cursor`. */
  async listChannels(token: string): Promise<ChatChannel[]> {
    const channels: ChatChannel[] = [];
    let cursor = '';
    for (let page = 0; page < MAX_CHANNEL_PAGES; page++) {
      const params: Record<string, string> = {
        types: 'public_channel,private_channel',
        exclude_archived: 'true',
        limit: '200',
      };
      if (cursor) params.cursor = cursor;
      const body = await this.api('conversations.list', token, params, [], 'GET');
      for (const item of Array.isArray(body.channels) ? body.channels : []) {
        if (!isObject(item) || !str(item.id)) continue;
        channels.push({
          id: String(item.id),
          name: String(item.name ?? item.id),
          is_private: item.is_private === true,
        });
      }
      const meta = isObject(body.response_metadata) ? body.response_metadata : {};
      cursor = str(meta.next_cursor) ?? '';
      if (!cursor) break;
    }
    return channels;
  }

  async postMessage(token: string, channel: string, message: ChatMessage): Promise<{ ts: string | null }> {
    const body = await this.api('chat.postMessage', token, {
      channel,
      text: message.text,
      blocks: message.blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
    return { ts: str(body.ts) };
  }

  private tokenSet(body: Record<string, unknown>): TokenSet {
    const accessToken = str(body.access_token);
    if (!accessToken) throw providerRefused(LABEL, 'no access_token in the answer');
    const team = isObject(body.team) ? body.team : {};
    const hook = isObject(body.incoming_webhook) ? body.incoming_webhook : {};
    const configurationUrl = str(hook.configuration_url);
    return {
      accessToken,
      refreshToken: str(body.refresh_token),
      expiresIn: typeof body.expires_in === 'number' ? body.expires_in : null,
      scope: str(body.scope),
      accountId: str(team.id),
      accountName: str(team.name),
      // The incoming webhook's own URL is a credential: only its configuration page is kept.
      details:
        configurationUrl && /^https?:\/\//i.test(configurationUrl)
          ? { configuration_url: configurationUrl }
          : {},
    };
  }

  /**
   * One Web API call. JSON bodies for chat.postMessage, form bodies for the OAuth methods, query strings for
   * GET. Throws ChatRateLimitedError on 429, TokenRejectedError on a revoked token, a 400 ApiError on any
   * other `ok:false`, a 503 when unreachable.
   */
  private async api(
    method: string,
    token: string | null,
    params: Record<string, unknown>,
    secrets: string[] = [],
    verb: 'GET' | 'POST' = 'POST',
  ): Promise<Record<string, unknown>> {
    const url = new URL(`${this.config.apiBaseUrl}/${method}`);
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    let answer: ProviderAnswer;
    if (verb === 'GET') {
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
      answer = await callProvider(LABEL, url.toString(), { method: 'GET', headers });
    } else if (method === 'chat.postMessage') {
      answer = await callProvider(LABEL, url.toString(), { headers, json: params });
    } else {
      const form = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
      answer = await callProvider(LABEL, url.toString(), { headers, form });
    }
    if (answer.status === 429) throw new ChatRateLimitedError(retryAfterSeconds(answer.headers, this.now()));
    if (answer.status >= 500) throw providerUnavailable(LABEL);
    const body = isObject(answer.json) ? answer.json : null;
    if (!body) {
      if (answer.status >= 400) throw providerRefused(LABEL, `HTTP ${answer.status}`);
      throw providerUnavailable(LABEL);
    }
    if (body.ok !== true) {
      const error = str(body.error) ?? `HTTP ${answer.status}`;
      if (error === 'ratelimited')
        throw new ChatRateLimitedError(retryAfterSeconds(answer.headers, this.now()));
      if (token && REVOKED_ERRORS.has(error)) throw new TokenRejectedError(error);
      throw providerRefused(LABEL, error, [token, this.config.clientSecret, ...secrets]);
    }
    return body;
  }
}

/** A rate limit seen by a request (not a job) becomes a 503 with the provider's Retry-After. */
export function rateLimitProblem(error: ChatRateLimitedError): ApiError {
  return new ApiError(503, 'provider_rate_limited', `The ${LABEL} is rate limiting requests; retry later.`, {
    headers: { 'Retry-After': error.retryAfterSeconds },
  });
}
