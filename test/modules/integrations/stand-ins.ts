// Stand-ins on 127.0.0.1 for the chat tool (Slack's wire format), the forum ads platform (Reddit OAuth and
// Ads Conversions API v3) and the social ads provider (Meta OAuth and Graph API), plus a browser that walks
// an authorization URL through the callback's confirmation page, and an app whose logs are captured.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { buildApp, loggerOptions, type ServiceOverrides } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { generateApiKey } from '../../../src/modules/accounts/index.ts';
import type { Clock } from '../../../src/platform/clock.ts';
import type { App } from '../../../src/platform/http.ts';
import { call, TEST_SECRET_KEY, type TestContext } from '../../helpers/app.ts';
import { createTestDatabase, testRedisPrefix, testRedisUrl } from '../../helpers/db.ts';

export const CHAT = { id: 'chat-client-id', secret: 'chat-client-secret-Zq81' };
export const FORUM = { id: 'forum-client-id', secret: 'forum-client-secret-Yp72' };
export const SOCIAL = { id: 'social-app-id', secret: 'social-app-secret-Xo63' };

interface Server {
  url: string;
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

async function serve(
  handler: (req: IncomingMessage, body: string, res: ServerResponse, url: URL) => void,
): Promise<Server> {
  const requests: Server['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const url = new URL(req.url ?? '/', 'http://stand-in');
      requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body });
      handler(req, body, res, url);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function redirect(res: ServerResponse, to: string) {
  res.writeHead(302, { location: to });
  res.end();
}

const token = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

/** Slack: OAuth v2, conversations.list (2 pages), chat.postMessage, auth.revoke. */
export async function slackStandIn() {
  const state = {
    codes: new Map<string, string>(),
    tokens: new Set<string>(),
    refreshTokens: new Set<string>(),
    issued: [] as string[],
    posts: [] as Record<string, unknown>[],
    revoked: false,
    rotate: false,
    rateLimitNext: 0,
    failNextPost: '' as string,
  };
  const issue = () => {
    const access = token('xoxb-');
    state.tokens.add(access);
    state.issued.push(access);
    const body: Record<string, unknown> = {
      ok: true,
      access_token: access,
      token_type: 'bot',
      scope: 'channels:read,groups:read,chat:write',
      team: { id: 'T123', name: 'Acme <Ops>' },
      incoming_webhook: {
        configuration_url: 'https://acme.slack.example/services/B1',
        url: 'https://hooks.example/SECRET',
      },
    };
    if (state.rotate) {
      const refresh = token('xoxe-1-');
      state.refreshTokens.add(refresh);
      state.issued.push(refresh);
      body.refresh_token = refresh;
      body.expires_in = 43_200;
    }
    return body;
  };
  const server = await serve((req, body, res, url) => {
    const form = new URLSearchParams(body);
    const auth = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (url.pathname === '/oauth/v2/authorize') {
      const code = token('code-');
      state.codes.set(code, url.searchParams.get('redirect_uri') ?? '');
      return redirect(
        res,
        `${url.searchParams.get('redirect_uri')}?code=${code}&state=${url.searchParams.get('state')}`,
      );
    }
    if (url.pathname === '/api/oauth.v2.access') {
      if (form.get('client_id') !== CHAT.id || form.get('client_secret') !== CHAT.secret) {
        return json(res, 200, { ok: false, error: 'invalid_client_id' });
      }
      if (form.get('grant_type') === 'refresh_token') {
        if (!state.refreshTokens.delete(form.get('refresh_token') ?? ''))
          return json(res, 200, { ok: false, error: 'invalid_refresh_token' });
        return json(res, 200, issue());
      }
      const redirectUri = state.codes.get(form.get('code') ?? '');
      if (redirectUri === undefined) return json(res, 200, { ok: false, error: 'invalid_code' });
      state.codes.delete(form.get('code') ?? '');
      if (redirectUri !== form.get('redirect_uri'))
        return json(res, 200, { ok: false, error: 'bad_redirect_uri' });
      return json(res, 200, issue());
    }
    if (state.rateLimitNext > 0) {
      state.rateLimitNext--;
      return json(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': '7' });
    }
    if (state.revoked || !state.tokens.has(auth))
      return json(res, 200, { ok: false, error: state.revoked ? 'token_revoked' : 'invalid_auth' });
    if (url.pathname === '/api/conversations.list') {
      if (!url.searchParams.get('cursor')) {
        return json(res, 200, {
          ok: true,
          channels: [{ id: 'C1', name: 'general', is_private: false }],
          response_metadata: { next_cursor: 'dXNlcjpVMEc5V0ZYTlo=' },
        });
      }
      return json(res, 200, {
        ok: true,
        channels: [{ id: 'G2', name: 'alerts', is_private: true }],
        response_metadata: { next_cursor: '' },
      });
    }
    if (url.pathname === '/api/chat.postMessage') {
      if (state.failNextPost) {
        const error = state.failNextPost;
        state.failNextPost = '';
        return json(res, 200, { ok: false, error });
      }
      state.posts.push(JSON.parse(body));
      return json(res, 200, { ok: true, channel: 'C1', ts: '1700000000.000100' });
    }
    if (url.pathname === '/api/auth.revoke') {
      state.tokens.delete(auth);
      return json(res, 200, { ok: true, revoked: true });
    }
    return json(res, 200, { ok: false, error: 'unknown_method' });
  });
  return { ...server, state };
}

/** Reddit: authorize (PKCE), access_token / revoke_token with Basic auth, conversions v3. */
export async function redditStandIn() {
  const state = {
    codes: new Map<string, { challenge: string | null; redirectUri: string }>(),
    access: new Set<string>(),
    refresh: new Set<string>(),
    issued: [] as string[],
    events: [] as Record<string, unknown>[],
    revoked: [] as string[],
    failures: [] as { status: number; body: unknown; headers?: Record<string, string> }[],
    expiresIn: 3600,
  };
  const basic = `Basic ${Buffer.from(`${FORUM.id}:${FORUM.secret}`).toString('base64')}`;
  const issue = (withRefresh: boolean) => {
    const access = token('fa-access-');
    state.access.add(access);
    state.issued.push(access);
    const body: Record<string, unknown> = {
      access_token: access,
      token_type: 'bearer',
      expires_in: state.expiresIn,
      scope: 'adsconversions',
    };
    if (withRefresh) {
      const refresh = token('fa-refresh-');
      state.refresh.add(refresh);
      state.issued.push(refresh);
      body.refresh_token = refresh;
    }
    return body;
  };
  const server = await serve((req, body, res, url) => {
    const form = new URLSearchParams(body);
    if (url.pathname === '/api/v1/authorize') {
      const code = token('fa-code-');
      state.codes.set(code, {
        challenge: url.searchParams.get('code_challenge'),
        redirectUri: url.searchParams.get('redirect_uri') ?? '',
      });
      return redirect(
        res,
        `${url.searchParams.get('redirect_uri')}?state=${url.searchParams.get('state')}&code=${code}`,
      );
    }
    if (url.pathname === '/api/v1/access_token') {
      if (req.headers.authorization !== basic) return json(res, 401, { message: 'Unauthorized', error: 401 });
      if (form.get('grant_type') === 'refresh_token') {
        if (!state.refresh.has(form.get('refresh_token') ?? ''))
          return json(res, 400, { error: 'invalid_grant' });
        return json(res, 200, issue(false));
      }
      const pending = state.codes.get(form.get('code') ?? '');
      if (!pending) return json(res, 400, { error: 'invalid_grant' });
      state.codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (
        pending.challenge &&
        createHash('sha256').update(verifier).digest('base64url') !== pending.challenge
      ) {
        return json(res, 400, { error: 'invalid_grant' });
      }
      if (pending.redirectUri !== form.get('redirect_uri'))
        return json(res, 400, { error: 'redirect_uri_mismatch' });
      return json(res, 200, issue(true));
    }
    if (url.pathname === '/api/v1/revoke_token') {
      if (req.headers.authorization !== basic) return json(res, 401, {});
      state.revoked.push(form.get('token') ?? '');
      state.refresh.delete(form.get('token') ?? '');
      res.writeHead(204);
      return res.end();
    }
    const match = /^\/api\/v3\/pixels\/([^/]+)\/conversion_events$/.exec(url.pathname);
    if (match && req.method === 'POST') {
      const failure = state.failures.shift();
      if (failure) return json(res, failure.status, failure.body, failure.headers);
      const auth = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!state.access.has(auth)) return json(res, 401, { error: { code: 401, message: 'unauthorized' } });
      const parsed = JSON.parse(body) as { data: { events: Record<string, unknown>[] } };
      for (const event of parsed.data.events) state.events.push({ pixel: match[1], ...event });
      return json(res, 200, { message: 'Successfully processed 1 conversion events.' });
    }
    return json(res, 404, { error: { code: 404, message: 'not found' } });
  });
  return { ...server, state };
}

/** Meta: dialog/oauth, oauth/access_token, /me, ad set targeting, interest search, updates, permissions. */
export async function metaStandIn() {
  const state = {
    codes: new Map<string, string>(),
    tokens: new Set<string>(),
    issued: [] as string[],
    adSets: new Map<string, Record<string, unknown>>([
      [
        '2385',
        {
          geo_locations: { countries: ['US'] },
          age_min: 25,
          flexible_spec: [{ interests: [{ id: '1', name: 'Old' }] }],
        },
      ],
      [
        '2386',
        { geo_locations: { countries: ['GB'] }, exclusions: { interests: [{ id: '9', name: 'Gambling' }] } },
      ],
    ]),
    interests: new Map<string, { id: string; name: string }>([
      ['ai', { id: '6003', name: 'Artificial intelligence' }],
      ['machine learning', { id: '6004', name: 'Machine learning' }],
      ['chatbots', { id: '6005', name: 'Chatbot' }],
      ['crypto', { id: '6006', name: 'Cryptocurrency' }],
      ['scam', { id: '6007', name: 'Fraud' }],
    ]),
    updates: [] as { id: string; targeting: Record<string, unknown> }[],
    failUpdate: null as null | { status: number; body: unknown },
    permissionsDeleted: 0,
    /** Long-lived tokens given for short-lived ones (`grant_type=fb_exchange_token`). */
    longLived: [] as string[],
    refuseLongLived: false,
  };
  const graphError = (res: ServerResponse, status: number, message: string, code: number) =>
    json(res, status, { error: { message, type: 'OAuthException', code, fbtrace_id: 'AbC123' } });
  const server = await serve((req, body, res, url) => {
    const version = '/v21.0';
    const path = url.pathname.startsWith(version) ? url.pathname.slice(version.length) : url.pathname;
    if (path === '/dialog/oauth') {
      const code = token('meta-code-');
      state.codes.set(code, url.searchParams.get('redirect_uri') ?? '');
      return redirect(
        res,
        `${url.searchParams.get('redirect_uri')}?code=${code}&state=${url.searchParams.get('state')}`,
      );
    }
    if (path === '/oauth/access_token') {
      const q = url.searchParams;
      if (q.get('client_id') !== SOCIAL.id || q.get('client_secret') !== SOCIAL.secret)
        return graphError(res, 400, 'Error validating client secret.', 1);
      if (q.get('grant_type') === 'fb_exchange_token') {
        // Short-lived user token → long-lived one (about 60 days); the short-lived one stays valid.
        const shortLived = q.get('fb_exchange_token') ?? '';
        if (state.refuseLongLived || !state.tokens.has(shortLived))
          return graphError(res, 400, 'Error validating access token: Session has expired.', 190);
        const long = token('EAAL');
        state.tokens.add(long);
        state.issued.push(long);
        state.longLived.push(long);
        return json(res, 200, { access_token: long, token_type: 'bearer', expires_in: 5_183_944 });
      }
      const redirectUri = state.codes.get(q.get('code') ?? '');
      if (redirectUri === undefined || redirectUri !== q.get('redirect_uri')) {
        return graphError(res, 400, 'This authorization code has been used.', 100);
      }
      state.codes.delete(q.get('code') ?? '');
      // The code gives a short-lived user token (about an hour and a half).
      const access = token('EAAG');
      state.tokens.add(access);
      state.issued.push(access);
      return json(res, 200, { access_token: access, token_type: 'bearer', expires_in: 5_183 });
    }
    const params = req.method === 'POST' ? new URLSearchParams(body) : url.searchParams;
    const access = params.get('access_token') ?? '';
    if (!state.tokens.has(access))
      return graphError(res, 400, 'Error validating access token: The session has been invalidated.', 190);
    const proof = createHmac('sha256', SOCIAL.secret).update(access).digest('hex');
    if (params.get('appsecret_proof') !== proof)
      return graphError(res, 400, 'Invalid appsecret_proof provided in the API argument', 100);
    if (path === '/me' && req.method === 'GET')
      return json(res, 200, { id: '10158', name: 'Ana Advertiser' });
    if (path === '/me/permissions' && req.method === 'DELETE') {
      state.permissionsDeleted++;
      state.tokens.delete(access);
      return json(res, 200, { success: true });
    }
    if (path === '/search') {
      const hit = state.interests.get((params.get('q') ?? '').toLowerCase());
      return json(res, 200, {
        data: hit ? [{ ...hit, audience_size_lower_bound: 1000, path: ['Interests'] }] : [],
      });
    }
    const id = path.slice(1);
    const adSet = state.adSets.get(id);
    if (!adSet)
      return graphError(res, 400, `Unsupported get request. Object with ID '${id}' does not exist`, 100);
    if (req.method === 'GET') return json(res, 200, { id, targeting: adSet });
    if (req.method === 'POST') {
      if (state.failUpdate) return json(res, state.failUpdate.status, state.failUpdate.body);
      const targeting = JSON.parse(params.get('targeting') ?? '{}') as Record<string, unknown>;
      state.adSets.set(id, targeting);
      state.updates.push({ id, targeting });
      return json(res, 200, { success: true });
    }
    return graphError(res, 400, 'Unsupported request', 100);
  });
  return { ...server, state };
}

export interface IntegrationTestContext extends TestContext {
  logs: string[];
}

/** The real app with the given environment, logging at debug level into `logs`. */
export async function buildLoggedApp(
  env: Record<string, string>,
  clock?: Clock,
  overrides?: ServiceOverrides,
): Promise<IntegrationTestContext> {
  const database = await createTestDatabase();
  const operatorKey = generateApiKey().key;
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    SECRET_KEY: TEST_SECRET_KEY,
    BOOTSTRAP_API_KEY: operatorKey,
    LOG_LEVEL: 'debug',
    DATABASE_POOL_SIZE: '3',
    PLANS: JSON.stringify({
      enterprise: { burst_per_second: 100_000 },
      developer: { daily_quota: 100_000, burst_per_second: 100_000 },
    }),
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
    OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
    SOURCES: 'none',
    NLP_WORKER_THREADS: '0',
    PUBLIC_BASE_URL: 'http://crestwatch.test',
    ...(testRedisUrl ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: testRedisPrefix() } : {}),
    ...env,
  });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = await buildApp(config, {
    clock,
    logger: { ...(loggerOptions(config) as object), stream },
    background: false,
    overrides,
  });
  return {
    app,
    config,
    database,
    operatorKey,
    logs,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

export function providerEnv(slack?: Server, reddit?: Server, meta?: Server): Record<string, string> {
  const env: Record<string, string> = {};
  if (slack) {
    Object.assign(env, {
      CHAT_CLIENT_ID: CHAT.id,
      CHAT_CLIENT_SECRET: CHAT.secret,
      CHAT_AUTH_BASE_URL: slack.url,
      CHAT_API_BASE_URL: `${slack.url}/api`,
    });
  }
  if (reddit) {
    Object.assign(env, {
      FORUM_ADS_CLIENT_ID: FORUM.id,
      FORUM_ADS_CLIENT_SECRET: FORUM.secret,
      FORUM_ADS_AUTH_BASE_URL: reddit.url,
      FORUM_ADS_API_BASE_URL: reddit.url,
    });
  }
  if (meta) {
    Object.assign(env, {
      SOCIAL_ADS_APP_ID: SOCIAL.id,
      SOCIAL_ADS_APP_SECRET: SOCIAL.secret,
      SOCIAL_ADS_AUTH_BASE_URL: meta.url,
      SOCIAL_ADS_API_BASE_URL: meta.url,
    });
  }
  return env;
}

export function hiddenInputs(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) {
    out[m[1]!] = m[2]!
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
  }
  return out;
}

/**
 * The browser: opens the authorization URL at the stand-in (which redirects back with a code), loads the
 * callback's confirmation page, and submits its form. Returns both responses.
 */
export async function authorizeInBrowser(app: App, authorizationUrl: string) {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = new URL(String(res.headers.get('location')));
  const callbackPath = `${location.pathname}${location.search}`;
  const page = await app.inject({ method: 'GET', url: callbackPath, headers: { accept: 'text/html' } });
  const form = hiddenInputs(page.body);
  const done = await app.inject({
    method: 'POST',
    url: location.pathname,
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  return { callbackPath, page, form, done };
}

export async function connect(app: App, key: string, authPath: string) {
  const auth = await call(app, 'GET', authPath, { key });
  if (auth.statusCode !== 200) throw new Error(`auth failed: ${auth.statusCode} ${auth.body}`);
  return { auth, ...(await authorizeInBrowser(app, auth.data.authorization_url)) };
}

/** Fails when any of the secrets appears in the text. */
export function leaks(text: string, secrets: string[]): string[] {
  return secrets.filter((s) => s && text.includes(s));
}
