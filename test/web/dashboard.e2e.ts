// The dashboard in a real browser: Debian's Chromium driven by playwright-core (never a browser download)
// against the real app on 127.0.0.1. Each page is screenshotted under test-results/ and scanned with axe-core
// in the same browser; a CSP violation or a console error fails the test. Run with `npm run test:web`.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildTestApp, call, createUser, type TestContext } from '../helpers/app.ts';
import { RELAXED_PLANS, seed } from '../modules/insights/fixtures.ts';
import { insertCrisisEvent } from '../modules/integrations/workflow-stand-in.ts';
import {
  assertBuilt,
  launchChromium,
  listen,
  RESULTS,
  until,
  type WatchedPage,
  watchedPage,
} from './helpers.ts';

describe('the web dashboard in Chromium', () => {
  let ctx: TestContext;
  let browser: Browser;
  let page: Page;
  let base: string;
  let user: Awaited<ReturnType<typeof createUser>>;
  let trendIds: Awaited<ReturnType<typeof seed>>;
  let watched: WatchedPage;
  /** Console errors and CSP violations seen in the page: any of them fails the suite. */
  let problems: string[];

  before(async () => {
    assertBuilt();
    ctx = await buildTestApp({ env: { PLANS: RELAXED_PLANS } });
    trendIds = await seed(ctx, Date.now());
    await ctx.app.services.engine.tick();
    ctx.app.services.worker.start();
    base = await listen(ctx);
    user = await createUser(ctx, 'enterprise');

    browser = await launchChromium();
    watched = await watchedPage(browser);
    ({ page, problems } = watched);
  });

  after(async () => {
    await browser?.close();
    await ctx?.close();
  });

  /** Screenshot the page and scan it with axe-core: no serious or critical violations. */
  const check = (name: string) => watched.check(name);

  test('a browser gets the dashboard at / and an API client still gets JSON', async () => {
    const json = await fetch(`${base}/`, { headers: { accept: 'application/json' } });
    assert.equal(json.status, 404);
    assert.match(String(json.headers.get('content-type')), /^application\/problem\+json/);

    const response = await page.goto(`${base}/`);
    assert.equal(response?.status(), 200);
    assert.match(String(response?.headers()['content-security-policy']), /script-src 'self'/);
    await page.getByLabel('API key').waitFor();
    await check('sign-in');
  });

  test('a wrong key is refused with the API’s own words; the right one signs in', async () => {
    await page.getByLabel('API key').fill('cw_not_a_real_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /key/i);
    problems.length = 0; // the refused sign-in's 401, reported by the browser, was the point

    await page.getByLabel('API key').fill(user.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Trends', level: 1 }).waitFor();
    const stored = await page.evaluate(`sessionStorage.getItem('crestwatch.apiKey')`);
    assert.equal(stored, user.key);
    assert.doesNotMatch(page.url(), /cw_/, 'the key never appears in the URL');
  });

  test('filtering trends by a category shows only that category', async () => {
    const all = await call(ctx.app, 'GET', '/api/trends?limit=100', { key: user.key });
    assert.ok(all.data.trends.length >= 3, all.body);
    await page.locator('tbody tr').first().waitFor();
    assert.equal(await page.locator('tbody tr').count(), all.data.trends.length);
    await page.locator('svg.spark').first().waitFor();

    const category: string = all.data.trends[0].category;
    const expected = await call(
      ctx.app,
      'GET',
      `/api/trends?limit=100&category=${encodeURIComponent(category)}`,
      {
        key: user.key,
      },
    );
    await page.getByLabel('Category').selectOption(category);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(async () => (await page.locator('tbody tr').count()) === expected.data.trends.length);
    const shown = await page.locator('tbody td.category').allInnerTexts();
    assert.ok(shown.length > 0);
    for (const text of shown) assert.ok(text === category || text.startsWith(`${category}/`), text);
    await check('trends');
  });

  test('a trend page charts as many points as the analytics route returns', async () => {
    // A phrase folded into the trend is shown as another way it is written.
    await ctx.app.services.db
      .updateTable('trends')
      .set({ aliases: JSON.stringify(['#AcmeCloud']) })
      .where('id', '=', trendIds.negative)
      .execute();
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('link', { name: 'Acme Cloud' }).click();
    await page.getByRole('heading', { name: 'Acme Cloud', level: 1 }).waitFor();
    const analytics = await call(ctx.app, 'GET', `/api/trends/${trendIds.negative}/analytics?period=7d`, {
      key: user.key,
    });
    assert.ok(analytics.data.data.length > 0);
    const chart = page.locator('[data-points]');
    await chart.locator('canvas').waitFor();
    assert.equal(Number(await chart.getAttribute('data-points')), analytics.data.data.length);
    const detail = await call(ctx.app, 'GET', `/api/trends/${trendIds.negative}`, { key: user.key });
    await page.getByText(detail.data.meta_description).waitFor();
    await page.getByText('Also written').waitFor();
    await page.getByText('#AcmeCloud', { exact: true }).waitFor();
    await check('trend');
  });

  test('generating an insight shows its progress and then the insight', async () => {
    await page.getByRole('button', { name: 'Generate insight' }).click();
    await page.getByText(/Task (queued|running|succeeded)/).waitFor();
    await page.locator('.insight').getByText('Sentiment:').waitFor({ timeout: 30_000 });
    assert.match(await page.locator('.insight').innerText(), /negative|mixed/);
    await check('trend-insight');
  });

  test('reviewing a crisis event changes its review status', async () => {
    const id = await insertCrisisEvent(ctx, {
      userId: user.userId,
      title: 'Acme Cloud outage',
      severity: 'critical',
    });
    const version = 'ab'.repeat(16);
    const now = ctx.app.services.clock.now();
    await ctx.app.services.db
      .updateTable('crisis_events')
      .set({ evidence_version: version, evidence_as_of: now })
      .where('id', '=', id)
      .execute();
    await ctx.app.services.db
      .insertInto('crisis_evidence')
      .values({
        event_id: id,
        source_id: 'x',
        reference_id: 'post-1',
        source_url: 'https://example.com/post/1',
        observed_at: now,
        retrieved_at: now,
        excerpt: 'Acme Cloud is down for everyone in our office.',
        claim: 'Acme Cloud is down',
        content_hash: 'c'.repeat(64),
        attribution: 'example.com',
        licence_url: null,
      })
      .execute();

    await page.getByRole('link', { name: 'Crisis desk' }).click();
    await page.getByRole('link', { name: 'Acme Cloud outage' }).waitFor();
    await check('crisis');
    await page.getByRole('link', { name: 'Acme Cloud outage' }).click();
    await page.getByText('Acme Cloud is down for everyone in our office.').waitFor();
    assert.equal(await page.getByTestId('review-status').innerText(), 'needs_review');
    await page.getByLabel('Assessment').selectOption('disputed');
    await page.getByLabel('Rationale').fill('The excerpt is one office; nothing else corroborates it.');

    // The evidence changes while the reviewer reads: the review is refused and the page says why.
    const newer = 'cd'.repeat(16);
    await ctx.app.services.db
      .updateTable('crisis_events')
      .set({ evidence_version: newer })
      .where('id', '=', id)
      .execute();
    await page.getByRole('button', { name: 'Submit review' }).click();
    await page
      .getByRole('alert')
      .getByText(/evidence changed while you were reading/)
      .waitFor();
    await page.getByText(`evidence version ${newer}`).waitFor();
    problems.length = 0; // the refused review's 409 was the point
    assert.equal(await page.getByTestId('review-status').innerText(), 'needs_review');

    await page.getByRole('button', { name: 'Submit review' }).click();
    await page
      .getByTestId('review-status')
      .filter({ hasText: /^disputed$/ })
      .waitFor();
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page
      .getByTestId('crisis-status')
      .filter({ hasText: /^acknowledged$/ })
      .waitFor();
    await check('crisis-event');
  });

  test('a new key is shown once, and once revoked it is refused', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('New key name').fill('browser key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = (await page.getByTestId('new-key').innerText()).trim();
    assert.match(value, /^cw_[A-Za-z0-9]{40}$/);
    assert.equal((await call(ctx.app, 'GET', '/api/user/profile', { key: value })).statusCode, 200);
    await page.locator('.chart canvas').waitFor();
    await check('account');

    // The last owner cannot demote themselves: the API's detail says so on the page.
    await page.getByLabel(`Role of ${user.email}`).selectOption('member');
    await page.locator('.card', { hasText: 'Organisation' }).getByRole('alert').getByText(/owner/).waitFor();
    assert.equal(await page.getByLabel(`Role of ${user.email}`).inputValue(), 'owner');
    problems.length = 0; // the refused change's 409 was the point

    await page.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await page.getByText(value).count(), 0, 'the value is not shown again');
    await page.getByRole('button', { name: 'Revoke key browser key' }).click();
    await page
      .getByRole('row', { name: /browser key/ })
      .getByText('revoked or expired')
      .waitFor();
    const refused = await call(ctx.app, 'GET', '/api/user/profile', { key: value });
    assert.equal(refused.statusCode, 401);

    // Signing in with the revoked key shows the API's own detail.
    await page.getByRole('button', { name: 'Sign out' }).click();
    assert.equal(await page.evaluate(`sessionStorage.getItem('crestwatch.apiKey')`), null);
    await page.getByLabel('API key').fill(value);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), new RegExp(refused.data.detail.slice(0, 20)));
    problems.length = 0; // the refused sign-in's 401 was the point
    await page.getByLabel('API key').fill(user.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Trends', level: 1 }).waitFor();
  });

  test('trend rows update live from the stream', async () => {
    const sockets: string[] = [];
    // From another page, so the Trends page opens its stream after the listener is in place.
    await page.getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await page.getByRole('link', { name: 'Trends', exact: true }).click();
    await page.getByText('Live: rows update as new mentions arrive.').waitFor();
    const row = page.getByRole('row', { name: /Zenith Phone/ });
    const before = Number((await row.locator('td').nth(1).innerText()).replace(/\D/g, ''));
    const now = Date.now();
    const signals = Array.from({ length: 7 }, (_, i) => ({
      source: 'x',
      external_id: `live-zenith-${i}`,
      text: `The Zenith Phone keeps getting better, update ${i} is lovely.`,
      keywords: ['Zenith Phone'],
      observed_at: new Date(now - (i + 1) * 1000).toISOString(),
    }));
    const ingest = await call(ctx.app, 'POST', '/api/signals', { key: ctx.operatorKey, body: { signals } });
    assert.equal(ingest.data.accepted, 7, ingest.body);
    await ctx.app.services.trendProcessor.drain();
    await ctx.app.services.engine.tick();
    const fresh = await call(ctx.app, 'GET', `/api/trends/${trendIds.positive}`, { key: user.key });
    assert.ok(fresh.data.volume > before, `${fresh.data.volume} > ${before}`);
    // No reload: the new 24-hour volume arrives over the WebSocket.
    await row.locator('td').nth(1).getByText(String(fresh.data.volume), { exact: true }).waitFor();
    // The page streams only the trends it shows, named in the `trends` filter.
    const live = sockets.map((u) => new URL(u)).find((u) => u.pathname === '/ws/trends-live');
    assert.ok(live, `a stream was opened: ${sockets.join(', ')}`);
    assert.ok(live.searchParams.get('trends')?.split(',').includes('Zenith Phone'), live.search);
  });

  test('the alerts and recommendations pages show what there is and what to do next', async () => {
    await page.getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('heading', { name: /Notifications/ }).waitFor();
    await check('alerts');
    await page.getByRole('link', { name: 'Recommendations' }).click();
    await page.getByRole('heading', { name: 'Recommendations', level: 1 }).waitFor();
    await page.locator('.recs li, .empty').first().waitFor();
    await check('recommendations');
  });

  test('an invitee accepts on the sign-in page and lands signed in with their first key, shown once', async () => {
    const invite = await call(ctx.app, 'POST', '/api/org/invites', {
      key: user.key,
      body: { email: `invitee-${Date.now()}@example.com`, role: 'member' },
    });
    assert.equal(invite.statusCode, 201, invite.body);
    const guest = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await guest.goto(`${base}/`);
      await guest.getByLabel('Invitation token').fill(invite.data.token);
      await guest.getByLabel('Your name (optional)').fill('Grace Tester');
      await guest.getByRole('button', { name: 'Accept and get my key' }).click();
      const key = (await guest.locator('.secret').innerText()).trim();
      assert.match(key, /^cw_[A-Za-z0-9]{40}$/);
      await guest.screenshot({ path: path.join(RESULTS, 'invite-accepted.png'), fullPage: true });
      await guest.getByRole('button', { name: 'Continue to the dashboard' }).click();
      await guest.getByRole('heading', { name: 'Trends', level: 1 }).waitFor();
      assert.equal(await guest.evaluate(`sessionStorage.getItem('crestwatch.apiKey')`), key);
    } finally {
      await guest.close();
    }
  });

  test('pages reflow at 375 px wide', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const [hash, name] of [
      ['#/trends', 'trends-375'],
      [`#/trends/${trendIds.positive}`, 'trend-375'],
      ['#/account', 'account-375'],
    ] as const) {
      await page.goto(`${base}/${hash}`);
      await page.locator('h1').waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(`document.documentElement.scrollWidth - window.innerWidth`);
      assert.ok(Number(overflow) <= 0, `${name} scrolls sideways by ${overflow}px`);
      await check(name);
    }
  });
});
