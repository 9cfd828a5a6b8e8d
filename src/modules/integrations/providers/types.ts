// What every OAuth provider adapter offers the shared OAuth machinery.

export const PROVIDER_IDS = ['chat', 'forum_ads', 'social_ads'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds until the access token expires; null = it does not. */
  expiresIn: number | null;
  scope: string | null;
  accountId: string | null;
  accountName: string | null;
  /** Provider facts worth keeping (never secrets), e.g. the chat tool's configuration URL. */
  details: Record<string, unknown>;
}

export interface OAuthAdapter {
  id: ProviderId;
  /** How pages and errors name the provider ("chat tool"). */
  label: string;
  /** Path of the callback under the public base URL. */
  callbackPath: string;
  pkce: boolean;
  configured(): boolean;
  authorizationUrl(input: { state: string; redirectUri: string; codeChallenge: string | null }): string;
  exchange(input: { code: string; redirectUri: string; verifier: string | null }): Promise<TokenSet>;
  /** Absent where the provider has no refresh tokens. */
  refresh?(refreshToken: string): Promise<TokenSet>;
  /** Absent where the provider offers no revocation. */
  revoke?(tokens: { accessToken: string; refreshToken: string | null }): Promise<void>;
}

/** A provider said the token is no longer valid (revoked, expired, account gone). */
export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError';
  constructor(readonly reason: string) {
    super(`token rejected: ${reason}`);
  }
}
