// The small HTML pages behind an invite's `accept_url`: every value escaped, no scripts, and a form that may
// post only to this origin.
import { escapeHtml } from '../../platform/html.ts';
import type { InviteSummary } from './service.ts';

export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1b1f24}' +
  'button,input{font-size:1rem;padding:.4rem .6rem}button{margin-top:1rem}.muted{color:#57606a}' +
  'code{display:block;padding:.75rem;background:#f6f8fa;word-break:break-all;font-size:1.05rem}';

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ` +
    `content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`
  );
}

export function acceptPage(token: string, invite: InviteSummary): string {
  return page(
    'Join the organisation on Crestwatch',
    `<h1>Join the organisation on Crestwatch</h1>` +
      `<p>${escapeHtml(invite.invited_by_email ?? 'A member')} invited <strong>${escapeHtml(invite.email)}</strong> ` +
      `to their organisation as <strong>${escapeHtml(invite.role)}</strong>.</p>` +
      (invite.rejoining
        ? `<p class="muted">Accepting brings the Crestwatch account ${escapeHtml(invite.email)}, which left ` +
          `the organisation, back into it, enabled again, and shows a new API key once (its old keys stay ` +
          `revoked).`
        : `<p class="muted">Accepting creates the Crestwatch account ${escapeHtml(invite.email)} and shows ` +
          `its first API key once.`) +
      ` The invite works once and expires at ${escapeHtml(invite.expires_at)}.</p>` +
      // Relative to /api/org/invites/accept: posts back to the same path, without the token in the URL.
      `<form method="post" action="accept"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
      `<label>Your name (optional)<br><input name="full_name" maxlength="200" autocomplete="name"></label><br>` +
      `<button type="submit">${invite.rejoining ? 'Accept and rejoin' : 'Accept and create the account'}</button></form>`,
  );
}

export function acceptedPage(input: {
  email: string;
  role: string;
  apiKey: string;
  rejoined: boolean;
}): string {
  const title = input.rejoined ? 'Welcome back to Crestwatch' : 'Welcome to Crestwatch';
  const role = `<strong>${escapeHtml(input.role)}</strong>`;
  return page(
    title,
    `<h1>${title}</h1>` +
      `<p>The account <strong>${escapeHtml(input.email)}</strong> ` +
      (input.rejoined
        ? `is enabled again and back in the organisation as ${role}. Its new API key (read and write) is shown `
        : `was created as ${role} of the organisation. Its API key (read and write) is shown `) +
      `only now: copy it somewhere safe.</p><code>${escapeHtml(input.apiKey)}</code>` +
      `<p class="muted">Send it as <em>Authorization: Bearer &lt;key&gt;</em> or <em>X-API-Key</em>.</p>`,
  );
}

export function failedPage(message: string): string {
  return page(
    'The invite could not be accepted',
    `<h1>The invite could not be accepted</h1><p>${escapeHtml(message)}</p>` +
      `<p class="muted">Nothing was created. Ask whoever invited you for a new invite.</p>`,
  );
}
