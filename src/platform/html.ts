// Untrusted text in HTML (the offline crisis review page, the OAuth callback pages): the one escaper.

/** `& < > " '` as entities, so a value is inert as text and inside a quoted attribute. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
