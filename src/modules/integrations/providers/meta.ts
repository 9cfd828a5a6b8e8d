// The social ads adapter, in Meta's wire format: Facebook Login (`/{version}/dialog/oauth`,
// `GET /{version}/oauth/access_token`), and the Marketing API on the Graph API: read an ad set's `targeting`,
// search interests (`/search?type=adinterest`), update the ad set (`POST /{ad_set_id}` with `targeting`),
// revoke (`DELETE /me/permissions`). Every Graph call carries `appsecret_proof` = HMAC-SHA256(app secret,
// access token) in hex. Errors are `{error: {message, type, code, fbtrace_id}}`.
import { createHmac } from 'node:crypto';
import type { ProviderConfig } from '../../../config.ts';
import { ApiError } from '../../../platform/errors.ts';
import {
  callProvider,
  isObject,
  type ProviderAnswer,
  providerRefused,
  providerUnavailable,
  str,
} from './http.ts';
import { type OAuthAdapter, TokenRejectedError, type TokenSet } from './types.ts';

const LABEL = 'social ads provider';
const GRAPH_VERSION = 'v21.0';
const SOCIAL_ADS_SCOPES = 'ads_management,ads_read';
/** Graph error codes that mean the token is invalid or expired. */
const TOKEN_ERRORS = new Set([190, 102]);
/** Graph throttling codes. */
const THROTTLE_ERRORS = new Set([4, 17, 32, 613, 80004]);

export interface Interest {
  id: string;
  name: string;
}

export class MetaClient implements OAuthAdapter {
  readonly id = 'social_ads' as const;
  readonly label = LABEL;
  readonly callbackPath = '/api/integrations/ads/social_ads/callback';
  readonly pkce = false;

  constructor(private readonly config: ProviderConfig) {}

  configured(): boolean {
    return Boolean(this.config.clientId && this.config.clientSecret);
  }

  authorizationUrl({ state, redirectUri }: { state: string; redirectUri: string }): string {
    const url = new URL(`${this.config.authBaseUrl}/${GRAPH_VERSION}/dialog/oauth`);
    url.searchParams.set('client_id', this.config.clientId ?? '');
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', SOCIAL_ADS_SCOPES);
    return url.toString();
  }

  async exchange({ code, redirectUri }: { code: string; redirectUri: string }): Promise<TokenSet> {
    const url = this.url('oauth/access_token', {
      client_id: this.config.clientId ?? '',
      client_secret: this.config.clientSecret ?? '',
      redirect_uri: redirectUri,
      code,
    });
    const body = await this.read(await callProvider(LABEL, url), [code]);
    const shortLived = str(body.access_token);
    if (!shortLived) throw providerRefused(LABEL, 'no access_token in the answer');
    const token =
      (await this.longLived(shortLived)) ??
      ({
        accessToken: shortLived,
        expiresIn: typeof body.expires_in === 'number' ? body.expires_in : null,
      } as const);
    const me = await this.graph(token.accessToken, 'GET', 'me', { fields: 'id,name' });
    return {
      accessToken: token.accessToken,
      refreshToken: null,
      expiresIn: token.expiresIn,
      scope: null,
      accountId: str(me.id),
      accountName: str(me.name),
      details: {},
    };
  }

  /**
   * Trades the code's short-lived user token (about an hour; Meta has no refresh tokens) for a long-lived one
   * (about 60 days): `grant_type=fb_exchange_token`. null when Meta refuses, so the connection still works
   * with the short-lived token until it expires (it then shows as `token_expired`).
   */
  private async longLived(
    shortLived: string,
  ): Promise<{ accessToken: string; expiresIn: number | null } | null> {
    const url = this.url('oauth/access_token', {
      grant_type: 'fb_exchange_token',
      client_id: this.config.clientId ?? '',
      client_secret: this.config.clientSecret ?? '',
      fb_exchange_token: shortLived,
    });
    let body: Record<string, unknown>;
    try {
      body = await this.read(await callProvider(LABEL, url), [shortLived]);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'provider_error') return null;
      throw error;
    }
    const accessToken = str(body.access_token);
    if (!accessToken) return null;
    return { accessToken, expiresIn: typeof body.expires_in === 'number' ? body.expires_in : null };
  }

  async revoke({ accessToken }: { accessToken: string }): Promise<void> {
    await this.graph(accessToken, 'DELETE', 'me/permissions', {});
  }

  async targeting(token: string, adSetId: string): Promise<Record<string, unknown>> {
    const body = await this.graph(token, 'GET', encodeURIComponent(adSetId), { fields: 'targeting' });
    return isObject(body.targeting) ? body.targeting : {};
  }

  /** The best match for a keyword in the interest search, or null when there is none. */
  async searchInterest(token: string, keyword: string): Promise<Interest | null> {
    const body = await this.graph(token, 'GET', 'search', { type: 'adinterest', q: keyword, limit: '5' });
    const data = Array.isArray(body.data) ? body.data : [];
    for (const item of data) {
      if (isObject(item) && str(item.id) && str(item.name))
        return { id: String(item.id), name: String(item.name) };
    }
    return null;
  }

  async updateTargeting(token: string, adSetId: string, targeting: Record<string, unknown>): Promise<void> {
    await this.graph(token, 'POST', encodeURIComponent(adSetId), { targeting: JSON.stringify(targeting) });
  }

  proof(token: string): string {
    return createHmac('sha256', this.config.clientSecret ?? '')
      .update(token)
      .digest('hex');
  }

  private url(path: string, params: Record<string, string>): string {
    const url = new URL(`${this.config.apiBaseUrl}/${GRAPH_VERSION}/${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  }

  private async graph(
    token: string,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    params: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const auth = { access_token: token, appsecret_proof: this.proof(token) };
    const answer =
      method === 'POST'
        ? await callProvider(LABEL, this.url(path, {}), { form: { ...params, ...auth } })
        : await callProvider(LABEL, this.url(path, { ...params, ...auth }), { method });
    return this.read(answer, [token], true);
  }

  private async read(
    answer: ProviderAnswer,
    secrets: string[],
    withToken = false,
  ): Promise<Record<string, unknown>> {
    const body = isObject(answer.json) ? answer.json : null;
    const error = body && isObject(body.error) ? body.error : null;
    if (answer.status >= 500 && !error) throw providerUnavailable(LABEL);
    if (error) {
      const code = typeof error.code === 'number' ? error.code : null;
      const message = str(error.message) ?? `error ${code ?? answer.status}`;
      if (withToken && code !== null && TOKEN_ERRORS.has(code)) throw new TokenRejectedError(message);
      if (code !== null && THROTTLE_ERRORS.has(code)) {
        throw new ApiError(
          503,
          'provider_rate_limited',
          `The ${LABEL} is throttling requests; retry later.`,
          {
            headers: { 'Retry-After': 60 },
          },
        );
      }
      throw providerRefused(LABEL, message, [this.config.clientSecret, ...secrets]);
    }
    if (answer.status >= 400 || !body) throw providerRefused(LABEL, `HTTP ${answer.status}`);
    return body;
  }
}
