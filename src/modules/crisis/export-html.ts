// The offline review page: one self-contained HTML document (no scripts, no external resources), every
// value escaped, and only http(s) URLs turned into links. Served with a CSP that forbids scripts anyway.
import { escapeHtml } from '../../platform/html.ts';
import type { CrisisEventView } from './view.ts';

export const EXPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function link(url: string | null | undefined): string {
  if (!url) return '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return escapeHtml(url);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return escapeHtml(url);
  return `<a href="${escapeHtml(parsed.href)}" rel="noopener noreferrer nofollow">${escapeHtml(url)}</a>`;
}

const row = (label: string, value: string) =>
  `<tr><th scope="row">${escapeHtml(label)}</th><td>${value}</td></tr>`;

export function exportHtml(event: CrisisEventView, exportedAt: string): string {
  const fields: [string, string][] = [
    ['Severity', escapeHtml(event.severity)],
    ['Status', escapeHtml(event.status)],
    ['Review status', escapeHtml(event.review_status)],
    ['Source state', escapeHtml(event.source_state)],
    ['Detected at', escapeHtml(event.detected_at)],
    ['Impacted entity', escapeHtml(event.impacted_entity)],
    ['Keywords', escapeHtml(event.source_keywords.join(', '))],
    ['Location', escapeHtml(event.location)],
    ['Provider severity', escapeHtml(event.provider_severity)],
    ['Detection method', escapeHtml(`${event.detection_method ?? ''} ${event.method_version ?? ''}`.trim())],
    ['Severity basis', escapeHtml(event.severity_basis)],
    ['Corroboration', escapeHtml(event.corroboration ? JSON.stringify(event.corroboration) : '')],
    [
      'Evidence completeness',
      escapeHtml(
        event.evidence_completeness
          ? `${event.evidence_completeness.score}/100 (${event.evidence_completeness.method}) ${event.evidence_completeness.meaning ?? ''}`
          : '',
      ),
    ],
    ['Evidence version', `<code>${escapeHtml(event.evidence_version)}</code>`],
    ['Evidence as of', escapeHtml(event.evidence_as_of)],
    ['Freshness', escapeHtml(event.freshness)],
    ['Trend', link(event.trend_snapshot_link)],
  ];
  const evidence = (event.source_refs ?? [])
    .map(
      (e) =>
        `<tr><td>${escapeHtml(e.id)}</td><td>${escapeHtml(e.source_id)}<br><small>${escapeHtml(e.reference_id)}</small></td>` +
        `<td>${link(e.source_url)}</td><td>${escapeHtml(e.observed_at)}<br><small>retrieved ${escapeHtml(e.retrieved_at)}</small></td>` +
        `<td><blockquote>${escapeHtml(e.excerpt)}</blockquote>${escapeHtml(e.claim)}</td>` +
        `<td>${escapeHtml(e.attribution)}${e.licence_url ? `<br>${link(e.licence_url)}` : ''}</td>` +
        `<td><code>${escapeHtml(e.content_hash)}</code></td></tr>`,
    )
    .join('\n');
  const reviews = (event.reviews ?? [])
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.created_at)}</td><td>${escapeHtml(r.reviewer_id)}</td><td>${escapeHtml(r.assessment)}</td>` +
        `<td>${escapeHtml(r.rationale)}</td><td><code>${escapeHtml(r.evidence_version)}</code></td></tr>`,
    )
    .join('\n');
  const limitations = event.limitations.map((l) => `<li>${escapeHtml(l)}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(EXPORT_CSP)}">
<meta name="referrer" content="no-referrer">
<title>Crisis event ${escapeHtml(event.id)}: ${escapeHtml(event.title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#111}
table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{border:1px solid #ccc;padding:.35rem .5rem;vertical-align:top;text-align:left}
th[scope=row]{width:12rem;background:#f6f6f6}
code{font-size:12px;word-break:break-all}
blockquote{margin:0 0 .3rem;white-space:pre-wrap}
</style>
</head>
<body>
<h1>${escapeHtml(event.title)}</h1>
<p>${escapeHtml(event.summary)}</p>
<p><small>Crisis event ${escapeHtml(event.id)}, exported ${escapeHtml(exportedAt)}. content_hash = SHA-256 hex of the
excerpt after Unicode NFC, whitespace runs collapsed to one space and trimmed; evidence_version = first 32 hex
characters of SHA-256 over the sorted content hashes joined with a newline.</small></p>
<table>${fields.map(([label, value]) => row(label, value)).join('\n')}</table>
<h2>Evidence (${escapeHtml((event.source_refs ?? []).length)})</h2>
<table>
<thead><tr><th>id</th><th>source</th><th>link</th><th>observed</th><th>excerpt and claim</th><th>attribution</th><th>content_hash</th></tr></thead>
<tbody>
${evidence}
</tbody>
</table>
<h2>Reviews (${escapeHtml((event.reviews ?? []).length)})</h2>
<table>
<thead><tr><th>at</th><th>reviewer</th><th>assessment</th><th>rationale</th><th>evidence_version</th></tr></thead>
<tbody>
${reviews}
</tbody>
</table>
<h2>Limitations</h2>
<ul>${limitations}</ul>
</body>
</html>
`;
}
