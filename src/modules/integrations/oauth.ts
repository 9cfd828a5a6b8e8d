// The OAuth machinery the chat, forum ads and social ads integrations share: states (random, bound to user
// and provider, single use, 10 minutes, PKCE S256 where the provider has it), the confirmation step of the
// callback, token storage (sealed with the SecretBox), refresh on expiry, and disconnect with revocation.
import { createHash, randomBytes } from 'node:crypto';
import type { Actor, AuditLog } from '../../platform/audit.ts';
import type { Clock } from '../../platform/clock.ts';
import { type SecretBox, sha256Hex } from '../../platform/crypto.ts';
import { ApiError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { type OAuthAdapter, type ProviderId, TokenRejectedError, type TokenSet } from './providers/types.ts';
import type { ConnectionRow, IntegrationsStore } from './store.ts';

const STATE_TTL_MS = 10 * 60_000;
/** Refresh this long before the recorded expiry, so a token does not expire in flight. */
const EXPIRY_MARGIN_MS = 60_000;

interface OAuthDeps {
  store: IntegrationsStore;
  /** Users' emails (the accounts module's AccountsService). */
  users: { identities(userIds: readonly number[]): Promise<Map<number, { email: string }>> };
  box: SecretBox;
  clock: Clock;
  audit: AuditLog;
  publicBaseUrl: string;
  log?: { warn(obj: object, msg: string): void };
}

/** A callback's state checked but not consumed: what the confirmation page shows. */
interface PendingAuthorization {
  email: string;
  confirmToken: string;
}

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export class OAuthService {
  readonly adapters = new Map<ProviderId, OAuthAdapter>();

  constructor(private readonly deps: OAuthDeps) {}

  register(adapter: OAuthAdapter): void {
    this.adapters.set(adapter.id, adapter);
  }

  adapter(id: ProviderId): OAuthAdapter {
    const adapter = this.adapters.get(id);
    if (!adapter) throw notFound('No such integration.');
    return adapter;
  }

  redirectUri(adapter: OAuthAdapter): string {
    return `${this.deps.publicBaseUrl.replace(/\/+$/, '')}${adapter.callbackPath}`;
  }

  /** `{authorization_url, state}` for the caller; 503 `integration_not_configured` without client credentials. */
  async start(userId: number, id: ProviderId): Promise<{ authorization_url: string; state: string }> {
    const adapter = this.adapter(id);
    if (!adapter.configured()) {
      throw new ApiError(
        503,
        'integration_not_configured',
        `The ${adapter.label} integration is not configured on this server (its client id and secret are unset).`,
        { headers: { 'Retry-After': 3600 } },
      );
    }
    const now = this.deps.clock.now();
    const state = base64url(randomBytes(32));
    const verifier = adapter.pkce ? base64url(randomBytes(48)) : null;
    await this.deps.store.insertState({
      user_id: userId,
      provider: id,
      state_hash: sha256Hex(state),
      verifier_sealed: verifier ? this.deps.box.encrypt(verifier) : null,
      created_at: now,
      expires_at: now + STATE_TTL_MS,
    });
    // Expired states are useless; drop them now and then.
    if (Math.random() < 0.05) await this.deps.store.purgeStates(now - STATE_TTL_MS);
    return {
      authorization_url: adapter.authorizationUrl({
        state,
        redirectUri: this.redirectUri(adapter),
        codeChallenge: verifier ? pkceChallenge(verifier) : null,
      }),
      state,
    };
  }

  /** A state that is unused and unexpired, with its user's email (none once that user is gone). */
  private async liveState(id: ProviderId, stateHash: string, now: number) {
    const state = await this.deps.store.findLiveState(id, stateHash, now);
    if (!state) return undefined;
    const identity = (await this.deps.users.identities([Number(state.user_id)])).get(Number(state.user_id));
    return identity && { ...state, email: identity.email };
  }

  /** Checks a callback's state without using it up; stores nothing. */
  async pending(id: ProviderId, state: string, code: string): Promise<PendingAuthorization> {
    const adapter = this.adapter(id);
    const now = this.deps.clock.now();
    const live = await this.liveState(id, sha256Hex(state), now);
    if (!live) throw invalidState(adapter);
    const confirmToken = this.deps.box.encrypt(
      JSON.stringify({ p: id, s: sha256Hex(state), c: sha256Hex(code), e: now + STATE_TTL_MS }),
    );
    return { email: live.email, confirmToken };
  }

  /** The confirmed callback: uses up the state, exchanges the code, stores the tokens sealed. */
  async complete(
    id: ProviderId,
    input: { state: string; code: string; confirm_token: string },
    requestId: string,
  ): Promise<{ email: string; accountName: string | null }> {
    const adapter = this.adapter(id);
    const now = this.deps.clock.now();
    if (!this.confirmTokenMatches(id, input, now)) {
      throw badRequest(
        'The confirmation does not match this authorization; start again from the confirmation page.',
        'confirm_token',
        'invalid_confirmation',
      );
    }
    const live = await this.liveState(id, sha256Hex(input.state), now);
    if (!live || !(await this.deps.store.consumeState(Number(live.id), now))) throw invalidState(adapter);
    const userId = Number(live.user_id);
    const verifier = live.verifier_sealed ? this.deps.box.decrypt(live.verifier_sealed) : null;
    const tokens = await adapter.exchange({
      code: input.code,
      redirectUri: this.redirectUri(adapter),
      verifier,
    });
    await this.deps.store.transaction(async (trx) => {
      await this.deps.store.upsertConnection(
        {
          user_id: userId,
          provider: id,
          status: 'active',
          broken_reason: null,
          ...this.sealTokens(tokens, null, now),
          scope: tokens.scope,
          account_id: tokens.accountId,
          account_name: tokens.accountName,
          details: JSON.stringify(tokens.details),
          settings: null,
          created_at: now,
          updated_at: now,
        },
        trx,
      );
      await this.deps.audit.record(
        userId,
        { userId, permissions: [], requestId },
        'integration.connected',
        'integration',
        id,
        `Connected the ${adapter.label}${tokens.accountName ? ` (${tokens.accountName})` : ''}.`,
        trx,
      );
    });
    return { email: live.email, accountName: tokens.accountName };
  }

  /** The caller's connection, or 409 `integration_not_connected`. */
  async requireConnection(userId: number, id: ProviderId): Promise<ConnectionRow> {
    const connection = await this.deps.store.connection(userId, id);
    if (!connection) {
      throw conflict(
        `The ${this.adapter(id).label} is not connected: complete its authorization first.`,
        'integration_not_connected',
      );
    }
    return connection;
  }

  /**
   * A usable access token: refreshed first when the recorded expiry has passed (by the injected clock).
   * A connection the provider refused becomes `broken` and answers 409 `integration_broken`.
   */
  async accessToken(connection: ConnectionRow, options: { force?: boolean } = {}): Promise<string> {
    const adapter = this.adapter(connection.provider as ProviderId);
    if (connection.status === 'broken') throw brokenProblem(adapter, connection.broken_reason);
    const now = this.deps.clock.now();
    const expiresAt = connection.token_expires_at === null ? null : Number(connection.token_expires_at);
    const fresh = expiresAt === null || expiresAt - EXPIRY_MARGIN_MS > now;
    if (fresh && !(options.force && connection.refresh_token_sealed && adapter.refresh)) {
      return this.deps.box.decrypt(connection.access_token_sealed);
    }
    const refreshToken = connection.refresh_token_sealed
      ? this.deps.box.decrypt(connection.refresh_token_sealed)
      : null;
    if (!refreshToken || !adapter.refresh) {
      await this.markBroken(connection, 'token_expired');
      throw brokenProblem(adapter, 'token_expired');
    }
    let tokens: TokenSet;
    try {
      tokens = await adapter.refresh(refreshToken);
    } catch (error) {
      if (error instanceof TokenRejectedError) {
        await this.markBroken(connection, error.reason);
        throw brokenProblem(adapter, error.reason, 400);
      }
      throw error;
    }
    const sealed = this.sealTokens(tokens, refreshToken, now);
    await this.deps.store.updateTokens(connection.id, sealed, now);
    connection.access_token_sealed = sealed.access_token_sealed;
    connection.refresh_token_sealed = sealed.refresh_token_sealed;
    connection.token_expires_at = sealed.token_expires_at;
    return tokens.accessToken;
  }

  /**
   * Runs a provider call with the connection's token; a token the provider rejects marks the connection
   * broken and answers 409 `integration_broken`.
   */
  async withToken<T>(connection: ConnectionRow, fn: (token: string) => Promise<T>): Promise<T> {
    const token = await this.accessToken(connection);
    try {
      return await fn(token);
    } catch (error) {
      if (error instanceof TokenRejectedError) {
        await this.markBroken(connection, error.reason);
        throw brokenProblem(this.adapter(connection.provider as ProviderId), error.reason, 400);
      }
      throw error;
    }
  }

  async markBroken(connection: ConnectionRow, reason: string): Promise<void> {
    connection.status = 'broken';
    connection.broken_reason = reason;
    await this.deps.store.markBroken(connection.id, reason, this.deps.clock.now());
  }

  /** Forgets the credentials (404 when there are none) and revokes them at the provider, best effort. */
  async disconnect(actor: Actor, id: ProviderId): Promise<void> {
    const adapter = this.adapter(id);
    const connection = await this.deps.store.connection(actor.userId, id);
    if (!connection) throw notFound(`The ${adapter.label} is not connected.`);
    await this.deps.store.transaction(async (trx) => {
      await this.deps.store.deleteConnection(connection.id, trx);
      await this.deps.audit.record(
        actor.userId,
        actor,
        'integration.disconnected',
        'integration',
        id,
        `Disconnected the ${adapter.label}.`,
        trx,
      );
    });
    if (adapter.revoke) {
      try {
        await adapter.revoke({
          accessToken: this.deps.box.decrypt(connection.access_token_sealed),
          refreshToken: connection.refresh_token_sealed
            ? this.deps.box.decrypt(connection.refresh_token_sealed)
            : null,
        });
      } catch (error) {
        // The credentials are forgotten either way; the provider may keep a grant the user can remove there.
        const reason = error instanceof ApiError ? error.code : 'error';
        this.deps.log?.warn({ provider: id, reason }, 'integration token revocation failed');
      }
    }
  }

  private sealTokens(tokens: TokenSet, previousRefresh: string | null, now: number) {
    const refresh = tokens.refreshToken ?? previousRefresh;
    return {
      access_token_sealed: this.deps.box.encrypt(tokens.accessToken),
      refresh_token_sealed: refresh ? this.deps.box.encrypt(refresh) : null,
      token_expires_at: tokens.expiresIn === null ? null : now + tokens.expiresIn * 1000,
    };
  }

  private confirmTokenMatches(
    id: ProviderId,
    input: { state: string; code: string; confirm_token: string },
    now: number,
  ): boolean {
    try {
      const claims = JSON.parse(this.deps.box.decrypt(input.confirm_token)) as Record<string, unknown>;
      return (
        claims.p === id &&
        claims.s === sha256Hex(input.state) &&
        claims.c === sha256Hex(input.code) &&
        typeof claims.e === 'number' &&
        claims.e > now
      );
    } catch {
      return false;
    }
  }
}

function invalidState(adapter: OAuthAdapter): ApiError {
  return badRequest(
    `This ${adapter.label} authorization is unknown, was already used or has expired (10 minutes); start again.`,
    'state',
    'invalid_state',
  );
}

/** 400 when the provider has just refused the token, 409 when the connection was already known broken. */
function brokenProblem(adapter: OAuthAdapter, reason: string | null, status: 400 | 409 = 409): ApiError {
  return new ApiError(
    status,
    'integration_broken',
    `The ${adapter.label} no longer accepts this connection's token (${reason ?? 'refused'}); connect it again.`,
  );
}
