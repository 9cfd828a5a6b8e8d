// The dashboard's alerts, recommendations, crisis export and account flows in Chromium (see helpers.ts):
// the notification bell, a webhook from creation (secret shown once) through a signed test delivery to a
// receiver on 127.0.0.1 and its deletion, recommendation states, the crisis HTML export as a download, key
// rotation with its grace period, and revoking an invite. Each step is checked against the API as well.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { buildTestApp, call, createUser, type TestContext } from '../helpers/app.ts';
import { drainJobs } from '../helpers/jobs.ts';
import { RELAXED_PLANS, seed } from '../modules/insights/fixtures.ts';
import { insertCrisisEvent } from '../modules/integrations/workflow-stand-in.ts';
import { type Receiver, startReceiver } from '../modules/webhooks/receiver.ts';
import {
  assertBuilt,
  launchChromium,
  listen,
  RESULTS,
  signIn,
  until,
  type WatchedPage,
  watchedPage,
} from './helpers.ts';

const CRISES = [
  { title: 'Acme Cloud outage', severity: 'high' },
  { title: 'Blorp Fest backlash', severity: 'medium' },
] as const;

describe('alerts, recommendations, crisis export and account flows in Chromium', () => {
  let ctx: TestContext;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  let base: string;
  let receiver: Receiver;
  let user: Awaited<ReturnType<typeof createUser>>;
  const crisisIds: number[] = [];

  /** The bell's unread count as its accessible name states it. */
  const bellCount = async () =>
    Number((await page.locator('a.bell').getAttribute('aria-label'))?.match(/(\d+) unread/)?.[1]);

  before(async () => {
    assertBuilt();
    // The receiver listens on 127.0.0.1, which the outbound guard refuses unless allow-listed.
    ctx = await buildTestApp({ env: { PLANS: RELAXED_PLANS, OUTBOUND_ALLOWLIST: '127.0.0.0/8' } });
    await seed(ctx, Date.now());
    await ctx.app.services.engine.tick();
    ctx.app.services.worker.start();
    base = await listen(ctx);
    receiver = await startReceiver();
    user = await createUser(ctx, 'enterprise');

    // Two crisis events with fresh evidence: each opens a notification and an actionable recommendation.
    const { db, events, clock } = ctx.app.services;
    for (const crisis of CRISES) {
      const id = await insertCrisisEvent(ctx, { userId: user.userId, ...crisis });
      const at = clock.now();
      await db
        .updateTable('crisis_events')
        .set({ evidence_version: 'ab'.repeat(16), evidence_as_of: at })
        .where('id', '=', id)
        .execute();
      await events.record(db, {
        id: `crisis.event.opened:${id}:1`,
        type: 'crisis.event.opened',
        occurred_at: at,
        data: {
          crisis_event_id: id,
          user_id: user.userId,
          title: crisis.title,
          severity: crisis.severity,
          status: 'active',
          impacted_entity: crisis.title,
          detected_at: new Date(at).toISOString(),
          summary: `Negative mentions about ${crisis.title} rose.`,
          source_link: `${base}/api/intelligence/crisis-events/${id}`,
          trend_id: null,
          source_keywords: [],
        },
      });
      crisisIds.push(id);
    }
    await drainJobs(ctx);

    browser = await launchChromium();
    watched = await watchedPage(browser);
    page = watched.page;
  });

  after(async () => {
    await browser?.close();
    await receiver?.close();
    await ctx?.close();
  });

  test('the bell shows the unread count, and it drops to zero once they are marked read', async () => {
    const feed = await call(ctx.app, 'GET', '/api/user/notifications/recent?limit=20', { key: user.key });
    assert.equal(feed.data.unread_count, 2, feed.body);
    await signIn(page, base, user.key);
    await until(async () => (await bellCount()) === 2);
    assert.equal((await page.locator('a.bell .badge').innerText()).trim(), '2');

    await page.locator('a.bell').click();
    await page.getByRole('heading', { name: 'Notifications (2 unread)' }).waitFor();
    await page.getByText(`Crisis event opened: ${CRISES[0].title}`).waitFor();
    await watched.check('alerts-notifications');

    // No page change: the bell follows the read marks at once.
    await page.getByRole('button', { name: 'Mark all shown as read' }).click();
    await page.getByRole('heading', { name: 'Notifications (0 unread)' }).waitFor();
    await until(async () => (await bellCount()) === 0);
    assert.equal(await page.locator('a.bell .badge').count(), 0, 'no badge at zero');
    const read = await call(ctx.app, 'GET', '/api/user/notifications/recent?limit=20', { key: user.key });
    assert.equal(read.data.unread_count, 0);
    assert.ok(read.data.notifications.every((n: { is_read: boolean }) => n.is_read));
  });

  test('a webhook shows its secret once, sends a signed test to a local receiver, lists it, and is deleted', async () => {
    await page.getByLabel('Destination URL').fill(receiver.url);
    await page.getByLabel('Trigger').selectOption('crisis_event');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secretBox = page.locator('.secret-box', { hasText: 'signing secret' });
    const secret = (await secretBox.locator('code.secret').innerText()).trim();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await call(ctx.app, 'GET', '/api/integrations/webhooks', { key: user.key });
    assert.equal(listed.data.webhooks.length, 1, listed.body);
    const hook = listed.data.webhooks[0];
    assert.equal(hook.url, receiver.url);
    assert.equal(hook.trigger_type, 'crisis_event');
    assert.equal(JSON.stringify(listed.data).includes(secret), false, 'the list never carries the secret');
    await page.locator('ul.hooks > li').filter({ hasText: receiver.url }).waitFor();
    await watched.check('alerts-webhook-secret');

    await secretBox.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await page.getByText(secret).count(), 0, 'gone once dismissed');
    await page.reload();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: `Delete webhook ${receiver.url}` }).waitFor();
    assert.equal(await page.getByText(secret).count(), 0, 'not shown again after a reload');
    assert.equal(await page.locator('code.secret').count(), 0);

    assert.equal(receiver.received.length, 0);
    await page.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    const result = page.getByTestId('test-result');
    await result.getByText(/Test delivery succeeded \(HTTP 200\) in \d+ ms\./).waitFor();
    // The receiver really got one request, signed with the secret shown once.
    assert.equal(receiver.received.length, 1);
    const got = receiver.received[0]!;
    const headers = got.headers as Record<string, string>;
    const payload = new Webhook(secret).verify(got.body, headers) as { id: string; event: string };
    assert.equal(payload.event, 'webhook.test');
    assert.equal(payload.id, headers['webhook-id']);
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const hmac = `sha256=${createHmac('sha256', key).update(got.body).digest('hex')}`;
    assert.ok(headers['x-webhook-signature']?.split(',').includes(hmac), headers['x-webhook-signature']);

    // The deliveries open on the test and match the executions the API lists.
    const executions = await call(ctx.app, 'GET', `/api/integrations/webhooks/${hook.id}/executions`, {
      key: user.key,
    });
    assert.equal(executions.data.executions.length, 1, executions.body);
    assert.equal(executions.data.executions[0].status, 'succeeded');
    assert.equal(executions.data.executions[0].event_id, payload.id);
    const deliveries = page.getByRole('button', { name: `Deliveries to ${receiver.url}` });
    assert.equal(await deliveries.getAttribute('aria-expanded'), 'true');
    const item = page.locator('ul.hooks li li');
    await item.filter({ hasText: 'webhook.test: succeeded (HTTP 200)' }).waitFor();
    assert.equal(await item.count(), 1);
    await watched.check('alerts-webhook-tested');

    // A second test adds a second delivery to the open list.
    await page.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    await until(async () => (await item.count()) === 2);
    assert.equal(receiver.received.length, 2);

    await page.getByRole('button', { name: `Delete webhook ${receiver.url}` }).click();
    await page.getByText('No webhooks: add a URL above').waitFor();
    const gone = await call(ctx.app, 'GET', '/api/integrations/webhooks', { key: user.key });
    assert.deepEqual(gone.data.webhooks, []);
    const deleted = await call(ctx.app, 'GET', `/api/integrations/webhooks/${hook.id}/executions`, {
      key: user.key,
    });
    assert.equal(deleted.statusCode, 404, deleted.body);
    await watched.check('alerts-webhook-deleted');
  });

  test('recommendations are marked viewed, actioned and dismissed, in the page and in the API', async () => {
    const status = async (title: string) => {
      const all = await call(ctx.app, 'GET', '/api/intelligence/recommendations?status=all&limit=100', {
        key: user.key,
      });
      return all.data.recommendations.find((r: { title: string }) => r.title === title)?.status;
    };
    const first = `Respond to the high crisis about ${CRISES[0].title}`;
    const second = `Keep an eye on the medium crisis about ${CRISES[1].title}`;
    await page.getByRole('link', { name: 'Recommendations' }).click();
    await page.getByRole('heading', { name: 'Recommendations', level: 1 }).waitFor();
    const item = (title: string) => page.locator('.recs > li').filter({ hasText: title });
    await item(first).waitFor();
    await item(second).waitFor();
    assert.equal(await item(first).getByTestId('rec-status').innerText(), 'new');
    await watched.check('recommendations-new');

    // Viewed: it leaves the list of new ones.
    await item(first).getByRole('button', { name: 'Mark viewed' }).click();
    await until(async () => (await item(first).count()) === 0);
    assert.equal(await status(first), 'viewed');
    await page.getByLabel('Show', { exact: true }).selectOption('viewed');
    await item(first)
      .getByTestId('rec-status')
      .filter({ hasText: /^viewed$/ })
      .waitFor();

    await page.getByLabel('Show', { exact: true }).selectOption('all');
    await item(second).waitFor();
    await item(first).getByRole('button', { name: 'Mark actioned' }).click();
    await item(first)
      .getByTestId('rec-status')
      .filter({ hasText: /^actioned$/ })
      .waitFor();
    assert.equal(await status(first), 'actioned');
    await item(second).getByRole('button', { name: 'Dismiss' }).click();
    await item(second)
      .getByTestId('rec-status')
      .filter({ hasText: /^dismissed$/ })
      .waitFor();
    assert.equal(await status(second), 'dismissed');
    await watched.check('recommendations-acted');
  });

  test('the crisis desk’s export downloads the event’s HTML export', async () => {
    const id = crisisIds[0]!;
    await page.getByRole('link', { name: 'Crisis desk' }).click();
    await page.getByRole('link', { name: CRISES[0].title }).click();
    await page.getByRole('button', { name: 'Export as HTML' }).waitFor();
    const [download, response] = await Promise.all([
      page.waitForEvent('download'),
      page.waitForResponse((r) => r.url().includes(`/crisis-events/${id}/export`)),
      page.getByRole('button', { name: 'Export as HTML' }).click(),
    ]);
    assert.equal(response.status(), 200);
    assert.match(String(response.headers()['content-type']), /^text\/html; charset=utf-8/);
    assert.equal(download.suggestedFilename(), `crisis-event-${id}.html`);
    const saved = path.join(RESULTS, `crisis-event-${id}.html`);
    await download.saveAs(saved);
    const html = fs.readFileSync(saved, 'utf8');
    const api = await ctx.app.inject({
      method: 'GET',
      url: `/api/intelligence/crisis-events/${id}/export?format=html`,
      headers: { authorization: `Bearer ${user.key}` },
    });
    // The file is the export itself (not the dashboard page); only its exported_at moment may differ.
    assert.match(html, /^<!doctype html>/i);
    assert.ok(html.includes(`<h1>${CRISES[0].title}</h1>`), html.slice(0, 400));
    assert.ok(html.includes(`<title>Crisis event ${id}: ${CRISES[0].title}</title>`));
    const stamp = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;
    assert.equal(html.replace(stamp, 'T'), api.body.replace(stamp, 'T'));
    await watched.check('crisis-export');
  });

  test('a rotated key’s new value is shown once and works; the old one keeps its grace period', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('New key name').fill('rotating key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const original = (await page.getByTestId('new-key').innerText()).trim();
    await page.getByRole('button', { name: 'I have copied it' }).click();

    const rotatedAt = Date.now();
    await page.getByRole('button', { name: `Rotate key rotating key (${original.slice(0, 11)}…)` }).click();
    const successor = page.getByTestId('new-key').filter({ hasNotText: original });
    await successor.waitFor();
    const value = (await successor.innerText()).trim();
    assert.match(value, /^cw_[A-Za-z0-9]{40}$/);
    assert.notEqual(value, original);

    // As documented: the new key works; the old one still reads for the 24-hour default grace period but
    // can no longer create keys.
    assert.equal((await call(ctx.app, 'GET', '/api/user/profile', { key: value })).statusCode, 200);
    assert.equal((await call(ctx.app, 'GET', '/api/user/profile', { key: original })).statusCode, 200);
    const minted = await call(ctx.app, 'POST', '/api/user/api-keys', {
      key: original,
      body: { name: 'from a rotated key' },
    });
    assert.equal(minted.statusCode, 403, minted.body);
    const keys = await call(ctx.app, 'GET', '/api/user/api-keys', { key: user.key });
    const old = keys.data.keys.find((k: { prefix: string }) => k.prefix === original.slice(0, 11));
    const fresh = keys.data.keys.find((k: { prefix: string }) => k.prefix === value.slice(0, 11));
    assert.equal(old.is_active, true);
    const grace = Date.parse(old.expires_at) - rotatedAt;
    assert.ok(Math.abs(grace - 86_400_000) < 60_000, `grace ${grace} ms`);
    assert.equal(fresh.expires_at, null);
    assert.equal(old.rotated_to_id, fresh.id);
    assert.equal(fresh.rotated_to_id, null);

    // The table tells the two apart: the old one says it was rotated and until when it works, and offers no
    // second rotation (the API would refuse it).
    const graceText = `rotated: works until ${new Date(Date.parse(old.expires_at)).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
    await page.locator(`tr[data-key-id="${old.id}"]`).getByText(graceText).waitFor();
    assert.equal(
      await page
        .locator(`tr[data-key-id="${old.id}"]`)
        .getByRole('button', { name: /^Rotate/ })
        .count(),
      0,
    );
    assert.equal(
      await page
        .locator(`tr[data-key-id="${fresh.id}"]`)
        .getByRole('button', { name: /^Rotate/ })
        .count(),
      1,
    );
    assert.equal(await page.locator(`tr[data-key-id="${fresh.id}"] td`).nth(2).innerText(), 'active');
    // The audit log on the same page follows without a reload.
    const audit = page.locator('ul.audit');
    await audit.locator('li', { hasText: 'api_key.rotated' }).getByText(original.slice(0, 11)).waitFor();
    await watched.check('account-rotated');

    await page.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await page.getByText(value).count(), 0, 'the new value is not shown again');
  });

  test('a revoked invite disappears from the list and its token is refused', async () => {
    const email = `revoked-${Date.now()}@example.com`;
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = await page
      .getByRole('status')
      .filter({ hasText: 'Send this link' })
      .locator('code')
      .innerText();
    const token = link.match(/\(token (\S+)\)/)?.[1];
    assert.ok(token, link);
    const invites = page.getByRole('region', { name: 'Organisation' }).locator('li', { hasText: email });
    await invites.waitFor();
    const pending = await call(ctx.app, 'GET', '/api/org/invites', { key: user.key });
    assert.ok(pending.data.some((i: { email: string }) => i.email === email));

    await page.getByRole('button', { name: `Revoke the invite for ${email}` }).click();
    await until(async () => (await invites.count()) === 0);
    await page.getByText('No pending invites: invite someone below.').waitFor();
    await page.locator('ul.audit li', { hasText: 'org.invite.revoked' }).getByText(email).waitFor();
    const left = await call(ctx.app, 'GET', '/api/org/invites', { key: user.key });
    assert.equal(
      left.data.some((i: { email: string }) => i.email === email),
      false,
    );
    const refused = await call(ctx.app, 'POST', '/api/org/invites/accept', { body: { token } });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.data.code, 'invite_revoked');
    await watched.check('account-invite-revoked');

    // The invitee pasting it on the sign-in page reads the API's reason.
    const guest = await watchedPage(browser);
    try {
      await guest.page.goto(`${base}/`);
      await guest.page.getByLabel('Invitation token').fill(token);
      await guest.page.getByRole('button', { name: 'Accept and get my key' }).click();
      await guest.page.getByRole('alert').getByText(refused.data.detail).waitFor();
      guest.problems.length = 0; // the refused acceptance's 400 was the point
      await guest.check('invite-revoked-refused');
    } finally {
      await guest.page.close();
    }
  });

  test('rotating the key this tab signed in with moves the tab to the new key', async () => {
    await page.getByRole('button', { name: `Rotate key test (${user.key.slice(0, 11)}…)` }).click();
    await page.getByText('this tab uses the new key from now on').waitFor();
    const value = (await page.getByTestId('new-key').innerText()).trim();
    assert.equal(await page.evaluate(`sessionStorage.getItem('crestwatch.apiKey')`), value);
    // Creating a key needs a key that is not on its way out: the tab's new one can.
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByLabel('New key name').fill('after rotation');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-key').waitFor();
    assert.equal(await page.locator('.card', { hasText: 'API keys' }).getByRole('alert').count(), 0);
  });

  test('the alerts, recommendations and crisis pages reflow at 375 px wide', async () => {
    // A webhook with a long URL and its buttons is the widest thing the alerts page holds.
    const made = await call(ctx.app, 'POST', '/api/integrations/webhooks', {
      key: user.key,
      body: {
        url: `${receiver.url}/a-rather-long-path/for-a-phone-sized-screen?with=a-query-string`,
        trigger_type: 'trend_velocity',
        delivery_mode: 'instant_stream',
        threshold_value: 80,
        cooldown_seconds: 600,
      },
    });
    assert.equal(made.statusCode, 201, made.body);
    await page.setViewportSize({ width: 375, height: 800 });
    for (const [hash, name] of [
      ['#/alerts', 'alerts-375'],
      ['#/recommendations', 'recommendations-375'],
      [`#/crisis/${crisisIds[0]}`, 'crisis-event-375'],
    ] as const) {
      await page.goto(`${base}/${hash}`);
      await page.locator('h1').waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(`document.documentElement.scrollWidth - window.innerWidth`);
      assert.ok(Number(overflow) <= 0, `${name} scrolls sideways by ${overflow}px`);
      await watched.check(name);
    }
  });
});
