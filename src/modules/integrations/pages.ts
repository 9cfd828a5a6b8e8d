// The small HTML pages of the OAuth callbacks. Every value is escaped, and the routes send a
// Content-Security-Policy that forbids scripts and lets the form post only to this origin.
import { escapeHtml } from '../../platform/html.ts';

export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1b1f24}' +
  'button{font-size:1rem;padding:.5rem 1.25rem;margin-right:.5rem}.muted{color:#57606a}';

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ` +
    `content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`
  );
}

export function confirmPage(input: {
  providerLabel: string;
  email: string;
  state: string;
  code: string;
  confirmToken: string;
}): string {
  return page(
    `Connect the ${input.providerLabel}`,
    `<h1>Connect the ${escapeHtml(input.providerLabel)}?</h1>` +
      `<p>This connects the ${escapeHtml(input.providerLabel)} account you just authorised to the Crestwatch ` +
      `account <strong>${escapeHtml(input.email)}</strong>.</p>` +
      `<p class="muted">If that is not your Crestwatch account, or you did not start this, close this page: ` +
      `nothing has been connected.</p>` +
      `<form method="post"><input type="hidden" name="state" value="${escapeHtml(input.state)}">` +
      `<input type="hidden" name="code" value="${escapeHtml(input.code)}">` +
      `<input type="hidden" name="confirm_token" value="${escapeHtml(input.confirmToken)}">` +
      `<button type="submit">Connect to ${escapeHtml(input.email)}</button></form>`,
  );
}

export function resultPage(input: { ok: boolean; title: string; message: string }): string {
  return page(
    input.title,
    `<h1>${escapeHtml(input.title)}</h1><p>${escapeHtml(input.message)}</p>` +
      `<p class="muted">You can close this page.</p>`,
  );
}
