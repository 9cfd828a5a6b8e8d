// Shared by the browser suites: Debian's Chromium through playwright-core (never a browser download), pages
// that record console errors and CSP violations, and a check that screenshots a page under test-results/ and
// scans it with axe-core in the same browser.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { TestContext } from '../helpers/app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const RESULTS = path.join(ROOT, 'test-results');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** axe-core's own source, evaluated in the page (through DevTools, so the page's CSP does not block it). */
const AXE_SOURCE = axe.source;
/** How long a page may take to show what a step waits for. */
const UI_TIMEOUT_MS = 15_000;

/**
 * Polls `condition` from the test's side. (Playwright's waitForFunction evaluates strings inside the page,
 * which the dashboard's CSP rightly refuses: no eval.)
 */
export async function until(condition: () => Promise<boolean>, timeoutMs = UI_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Fails early when the dashboard was not built; makes the results folder. */
export function assertBuilt(): void {
  assert.ok(
    fs.existsSync(path.join(ROOT, 'web/dist/index.html')),
    'web/dist is missing: run npm run build:web first',
  );
  fs.mkdirSync(RESULTS, { recursive: true });
}

/** Starts the test app listening on 127.0.0.1 and returns its base URL. */
export async function listen(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and CSP violations seen in the page: `check` fails on any of them. */
  problems: string[];
  /** Screenshot the page and scan it with axe-core: no serious or critical violations, no problems. */
  check(name: string): Promise<void>;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** A new page whose console errors, page errors and CSP violations are recorded; dialogs are accepted. */
export async function watchedPage(
  browser: Browser,
  viewport = { width: 1280, height: 900 },
): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(UI_TIMEOUT_MS);
  const problems: string[] = [];
  // Init scripts run through the DevTools protocol, outside the page's CSP; the listener reports violations.
  await page.addInitScript(
    `document.addEventListener('securitypolicyviolation', (e) =>
      console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));`,
  );
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('dialog', (dialog) => void dialog.accept());

  async function check(name: string): Promise<void> {
    await page.screenshot({ path: path.join(RESULTS, `${name}.png`), fullPage: true });
    await page.evaluate(`${AXE_SOURCE}\n;void 0`);
    const violations = (await page.evaluate(
      `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`,
    )) as AxeViolation[];
    const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      severe.map(
        (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
      [],
      `axe found serious or critical violations on ${name}`,
    );
    assert.deepEqual(problems, [], `console errors or CSP violations on ${name}`);
  }
  return { page, problems, check };
}

/** Signs in on the dashboard's sign-in page with `key` and waits for the trends page. */
export async function signIn(page: Page, base: string, key: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Trends', level: 1 }).waitFor();
}
