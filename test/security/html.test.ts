// Untrusted text stays text: the crisis HTML export and the OAuth callback pages render hostile values
// (`<script>`, attribute break-outs, `javascript:` URLs) inert and carry their CSP; chat messages neutralise
// mass mentions and links.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXPORT_CSP } from '../../src/modules/crisis/export-html.ts';
import { chatLink, escapeChat, PAGE_CSP } from '../../src/modules/integrations/index.ts';
import { call, createUser } from '../helpers/app.ts';
import {
  buildLoggedApp,
  connect,
  hiddenInputs,
  type IntegrationTestContext,
  providerEnv,
  slackStandIn,
} from '../modules/integrations/stand-ins.ts';
import { insertCrisisEvent } from '../modules/integrations/workflow-stand-in.ts';

const SCRIPT = '<script>alert(1)</script>';
const BREAKOUT = '" onmouseover="alert(1)" x="';
const JS_URL = 'javascript:alert(1)';

const TAGS = new Set(
  'html head meta title style body h1 h2 p small table thead tbody tr th td code blockquote br ul li a strong form input button'.split(
    ' ',
  ),
);

/** The page has only expected tags, no event-handler attributes, and links only to http(s). */
function assertInert(html: string, label: string): void {
  const tags = [...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.toLowerCase());
  assert.deepEqual(
    tags.filter((t) => !TAGS.has(t)),
    [],
    `${label}: unexpected tags`,
  );
  // Attribute values blanked: what is left inside tags are attribute names only.
  const skeleton = [...html.matchAll(/<[^>]*>/g)].map((m) => m[0].replace(/"[^"]*"|'[^']*'/g, '""'));
  const handlers = skeleton.filter(
    (t) => /\son[a-z]+\s*=/i.test(t) || /\s(?:src|srcdoc|formaction)\s*=/i.test(t),
  );
  assert.deepEqual(handlers, [], `${label}: event handler or source attributes`);
  for (const m of html.matchAll(/\s(href|action)\s*=\s*"([^"]*)"/gi)) {
    assert.match(m[2]!, /^https?:\/\//i, `${label}: ${m[1]} to a non-http(s) URL`);
  }
  assert.ok(!html.includes(SCRIPT), `${label}: raw script`);
}

describe('crisis HTML export with hostile values', () => {
  let ctx: IntegrationTestContext;
  before(async () => {
    ctx = await buildLoggedApp({});
  });
  after(async () => ctx.close());

  test('every value renders as text, links only to http(s), and the CSP header is sent', async () => {
    const user = await createUser(ctx, 'enterprise');
    const id = await insertCrisisEvent(ctx, {
      userId: user.userId,
      title: `Acme ${SCRIPT}`,
      keywords: [BREAKOUT, '<img src=x onerror=alert(1)>'],
    });
    const version = 'b'.repeat(32);
    const db = ctx.app.services.db;
    await db
      .updateTable('crisis_events')
      .set({
        summary: `Summary ${BREAKOUT}`,
        impacted_entity: `<iframe src="${JS_URL}">`,
        location: `<svg onload=alert(1)>`,
        evidence_version: version,
        evidence_as_of: ctx.app.services.clock.now(),
      })
      .where('id', '=', id)
      .execute();
    await db
      .insertInto('crisis_evidence')
      .values({
        event_id: id,
        source_id: `x${SCRIPT}`,
        reference_id: BREAKOUT,
        source_url: JS_URL,
        observed_at: ctx.app.services.clock.now(),
        retrieved_at: ctx.app.services.clock.now(),
        excerpt: `${SCRIPT} <a href="${JS_URL}">click</a>`,
        claim: BREAKOUT,
        content_hash: 'c'.repeat(64),
        attribution: '<b onclick=alert(1)>me</b>',
        licence_url: 'JaVaScRiPt:alert(1)',
      })
      .execute();
    const review = await call(ctx.app, 'POST', `/api/intelligence/crisis-events/${id}/reviews`, {
      key: user.key,
      body: { assessment: 'supported', rationale: `${BREAKOUT}${SCRIPT}`, evidence_version: version },
    });
    assert.equal(review.statusCode, 201, review.body);

    const res = await call(ctx.app, 'GET', `/api/intelligence/crisis-events/${id}/export?format=html`, {
      key: user.key,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.headers['content-security-policy'], EXPORT_CSP);
    assert.match(EXPORT_CSP, /default-src 'none'/);
    assertInert(res.body, 'export');
    assert.ok(!/javascript:/i.test(res.body.replace(/>[^<]*</g, '><')), 'javascript: outside text');
    // The hostile values are there, as text.
    assert.ok(res.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(res.body.includes('&quot; onmouseover=&quot;alert(1)&quot; x=&quot;'));
  });
});

describe('OAuth callback pages with hostile values', () => {
  let ctx: IntegrationTestContext;
  let slack: Awaited<ReturnType<typeof slackStandIn>>;
  before(async () => {
    slack = await slackStandIn();
    ctx = await buildLoggedApp(providerEnv(slack));
  });
  after(async () => {
    await ctx.close();
    await slack.close();
  });

  const html = { accept: 'text/html' };

  function assertPage(res: { headers: Record<string, unknown>; body: string }, label: string) {
    assert.equal(res.headers['content-security-policy'], PAGE_CSP, label);
    assert.match(String(res.headers['content-type']), /^text\/html/, label);
    assertInert(res.body, label);
  }

  test('a hostile code is escaped in the confirmation form, and the failed exchange page is inert', async () => {
    const user = await createUser(ctx);
    const auth = await call(ctx.app, 'GET', '/api/integrations/chat/auth', { key: user.key });
    const code = `${BREAKOUT}${SCRIPT}${JS_URL}`;
    const page = await ctx.app.inject({
      method: 'GET',
      url: `/api/integrations/chat/callback?${new URLSearchParams({ state: auth.data.state, code })}`,
      headers: html,
    });
    assert.equal(page.statusCode, 200, page.body);
    assertPage(page, 'confirmation page');
    assert.equal(hiddenInputs(page.body).code, code, 'the code round-trips as a value');
    const done = await ctx.app.inject({
      method: 'POST',
      url: '/api/integrations/chat/callback',
      headers: { ...html, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(hiddenInputs(page.body)).toString(),
    });
    assert.equal(done.statusCode, 400, done.body);
    assertPage(done, 'failed exchange page');
  });

  test('a provider error carrying markup renders as text', async () => {
    const user = await createUser(ctx);
    const auth = await call(ctx.app, 'GET', '/api/integrations/chat/auth', { key: user.key });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/integrations/chat/callback?${new URLSearchParams({
        state: auth.data.state,
        error: `${SCRIPT}${BREAKOUT}`,
        error_description: `<a href="${JS_URL}">fix</a>`,
      })}`,
      headers: html,
    });
    assert.equal(res.statusCode, 400, res.body);
    assertPage(res, 'declined page');
    assert.ok(res.body.includes('&lt;script&gt;'));
    const badState = await ctx.app.inject({
      method: 'GET',
      url: `/api/integrations/chat/callback?${new URLSearchParams({ state: SCRIPT, code: BREAKOUT })}`,
      headers: html,
    });
    assert.equal(badState.statusCode, 400);
    assertPage(badState, 'bad state page');
  });

  test('the provider’s own names (team “Acme <Ops>”) are escaped on the success page', async () => {
    const user = await createUser(ctx);
    const { page, done } = await connect(ctx.app, user.key, '/api/integrations/chat/auth');
    assertPage(page, 'confirmation page');
    assert.equal(done.statusCode, 200, done.body);
    assertPage(done, 'success page');
    assert.ok(!done.body.includes('<Ops>'));
  });
});

describe('chat messages neutralise mentions and links', () => {
  test('special mentions, user and group mentions, and link markup arrive as text', () => {
    for (const hostile of [
      '<!channel>',
      '<!here|here>',
      '<!everyone>',
      '<!subteam^S0123|@ops>',
      '<@U0123>',
      '<#C0123>',
      '<https://evil.example|https://bank.example>',
    ]) {
      const out = escapeChat(`hi ${hostile}`);
      assert.ok(!out.includes('<') && !out.includes('>'), `${hostile} → ${out}`);
    }
    for (const mention of ['@here', '@channel', '@everyone', '@HERE', '@Channel', '!here']) {
      const out = escapeChat(`ping ${mention} now`);
      assert.ok(!new RegExp(`${mention}\\b`, 'i').test(out), `${mention} → ${out}`);
    }
  });

  test('only http(s) URLs become links, and a URL cannot close the link early', () => {
    assert.equal(chatLink(JS_URL, 'Open'), 'Open');
    assert.equal(chatLink('data:text/html,<script>', 'Open'), 'Open');
    assert.equal(chatLink('https://ok.example/a b', 'Open'), 'Open');
    const link = chatLink('https://ok.example/x>|<!channel>', '<!here> text');
    assert.equal(link.match(/[<>|]/g)?.join(''), '<|>', link);
    assert.ok(!link.includes('<!'), link);
  });
});
