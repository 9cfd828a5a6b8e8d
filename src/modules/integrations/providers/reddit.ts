// The forum ads adapter, in Reddit's wire format: OAuth 2.0 code flow with PKCE (`/api/v1/authorize`,
// `/api/v1/access_token` with HTTP Basic client auth, `/api/v1/revoke_token`) and the Ads Conversions API v3
// (`POST /api/v3/pixels/{pixel_id}/conversion_events`, body `{data: {events: [...]}}`).
import type { ProviderConfig } from '../../../config.ts';
import {
  callProvider,
  cleanReason,
  isObject,
  providerRefused,
  providerUnavailable,
  retryAfterSeconds,
  str,
} from './http.ts';
import { type OAuthAdapter, TokenRejectedError, type TokenSet } from './types.ts';

const LABEL = 'forum ads platform';
const FORUM_ADS_SCOPES = 'adsconversions';
/** The standard tracking types; any other event name is sent as `Custom` with `custom_event_name`. */
const TRACKING_TYPES = [
  'PageVisit',
  'ViewContent',
  'Search',
  'AddToCart',
  'AddToWishlist',
  'Purchase',
  'Lead',
  'SignUp',
];

interface Conversion {
  eventName: string;
  eventAt: number;
  conversionId: string;
  value: number;
  currency: string;
  /** Further metadata fields given in the push (`item_count`, `products` …). */
  extra: Record<string, unknown>;
}

/** Outcome of one conversions call: delivered, retry later, or refused for good. */
type ConversionResult =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; status: number | null; reason: string; retryAfterSeconds?: number }
  | { kind: 'refused'; status: number; reason: string }
  | { kind: 'unauthorized'; status: number };

function conversionEvent(conversion: Conversion): Record<string, unknown> {
  const standard = TRACKING_TYPES.find((t) => t.toLowerCase() === conversion.eventName.toLowerCase());
  return {
    event_at: conversion.eventAt,
    action_source: 'WEBSITE',
    type: standard
      ? { tracking_type: standard }
      : { tracking_type: 'Custom', custom_event_name: conversion.eventName },
    metadata: {
      ...conversion.extra,
      conversion_id: conversion.conversionId,
      value: conversion.value,
      currency: conversion.currency,
    },
  };
}

export class RedditClient implements OAuthAdapter {
  readonly id = 'forum_ads' as const;
  readonly label = LABEL;
  readonly callbackPath = '/api/integrations/forum-ads/callback';
  readonly pkce = true;

  constructor(
    private readonly config: ProviderConfig,
    private readonly now: () => number,
  ) {}

  configured(): boolean {
    return Boolean(this.config.clientId && this.config.clientSecret);
  }

  authorizationUrl(input: { state: string; redirectUri: string; codeChallenge: string | null }): string {
    const url = new URL(`${this.config.authBaseUrl}/api/v1/authorize`);
    url.searchParams.set('client_id', this.config.clientId ?? '');
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('state', input.state);
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('duration', 'permanent');
    url.searchParams.set('scope', FORUM_ADS_SCOPES);
    if (input.codeChallenge) {
      url.searchParams.set('code_challenge', input.codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
    }
    return url.toString();
  }

  exchange(input: { code: string; redirectUri: string; verifier: string | null }): Promise<TokenSet> {
    const form: Record<string, string> = {
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri,
    };
    if (input.verifier) form.code_verifier = input.verifier;
    return this.token(form, [input.code, input.verifier]);
  }

  refresh(refreshToken: string): Promise<TokenSet> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken }, [refreshToken]);
  }

  async revoke({
    accessToken,
    refreshToken,
  }: {
    accessToken: string;
    refreshToken: string | null;
  }): Promise<void> {
    // Revoking the refresh token revokes its access tokens too.
    const answer = await callProvider(LABEL, `${this.config.authBaseUrl}/api/v1/revoke_token`, {
      headers: { authorization: this.basic() },
      form: refreshToken
        ? { token: refreshToken, token_type_hint: 'refresh_token' }
        : { token: accessToken, token_type_hint: 'access_token' },
    });
    if (answer.status >= 500) throw providerUnavailable(LABEL);
    if (answer.status >= 400) throw providerRefused(LABEL, `HTTP ${answer.status}`);
  }

  async sendConversion(token: string, pixelId: string, conversion: Conversion): Promise<ConversionResult> {
    const url = `${this.config.apiBaseUrl}/api/v3/pixels/${encodeURIComponent(pixelId)}/conversion_events`;
    let answer: Awaited<ReturnType<typeof callProvider>>;
    try {
      answer = await callProvider(LABEL, url, {
        headers: { authorization: `Bearer ${token}` },
        json: { data: { events: [conversionEvent(conversion)] } },
      });
    } catch {
      return { kind: 'retry', status: null, reason: 'provider unreachable' };
    }
    const { status } = answer;
    if (status >= 200 && status < 300) return { kind: 'delivered', status };
    if (status === 401) return { kind: 'unauthorized', status };
    const reason = cleanReason(this.reason(answer.json) ?? `HTTP ${status}`, [token]);
    if (status === 429) {
      return {
        kind: 'retry',
        status,
        reason,
        retryAfterSeconds: retryAfterSeconds(answer.headers, this.now()),
      };
    }
    if (status >= 500 || status === 408) return { kind: 'retry', status, reason };
    return { kind: 'refused', status, reason };
  }

  private basic(): string {
    const id = encodeURIComponent(this.config.clientId ?? '');
    const secret = encodeURIComponent(this.config.clientSecret ?? '');
    return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  }

  private reason(json: unknown): string | null {
    if (!isObject(json)) return null;
    if (isObject(json.error)) return str(json.error.message) ?? str(json.error.code);
    return str(json.error) ?? str(json.message);
  }

  private async token(form: Record<string, string>, secrets: (string | null)[]): Promise<TokenSet> {
    const answer = await callProvider(LABEL, `${this.config.authBaseUrl}/api/v1/access_token`, {
      headers: { authorization: this.basic() },
      form,
    });
    if (answer.status >= 500) throw providerUnavailable(LABEL);
    const body = isObject(answer.json) ? answer.json : null;
    const error = body ? this.reason(body) : null;
    const accessToken = body ? str(body.access_token) : null;
    if (answer.status >= 400 || error || !accessToken || !body) {
      const reason = error ?? `HTTP ${answer.status}`;
      if (form.grant_type === 'refresh_token' && (reason === 'invalid_grant' || answer.status === 401)) {
        throw new TokenRejectedError(reason);
      }
      throw providerRefused(LABEL, reason, [this.config.clientSecret, ...secrets]);
    }
    return {
      accessToken,
      // A refresh answer may omit the refresh token: the caller keeps the one it has.
      refreshToken: str(body.refresh_token),
      expiresIn: typeof body.expires_in === 'number' ? body.expires_in : null,
      scope: str(body.scope),
      accountId: null,
      accountName: null,
      details: {},
    };
  }
}
