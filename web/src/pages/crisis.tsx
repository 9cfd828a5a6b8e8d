// The crisis desk: active events grouped by severity with the list's filters; an event's evidence table, a
// review bound to the evidence_version on screen (a stale one explains itself), lifecycle actions, HTML export.
import type { RequestBody, ResponseBody } from '@crestwatch/client';
import { useState } from 'preact/hooks';
import { ApiProblem, api, withQuery } from '../api.ts';
import { Empty, ErrorNote, PageTitle, useLoad } from '../components/ui.tsx';
import { formatTime, groupBySeverity, SEVERITIES } from '../format.ts';

type ActionBody = RequestBody<'/api/intelligence/crisis-events/{id}/action', 'post'>;
type NewReview = RequestBody<'/api/intelligence/crisis-events/{id}/reviews', 'post'>;

function Filter({
  id,
  label,
  value,
  values,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  values: string[];
  onChange: (v: string) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </div>
  );
}

function CrisisList() {
  const [filters, setFilters] = useState({
    status: 'active',
    severity: 'all',
    review_status: 'all',
    freshness: 'all',
    period: '30d',
    keyword: '',
  });
  const events = useLoad(
    () =>
      api<ResponseBody<'/api/intelligence/crisis-events'>>(
        withQuery('/api/intelligence/crisis-events', { ...filters, limit: 100 }),
      ),
    [filters],
  );
  const set = (name: keyof typeof filters) => (value: string) => setFilters((f) => ({ ...f, [name]: value }));
  const list = events.data?.events ?? [];
  return (
    <section>
      <PageTitle>Crisis desk</PageTitle>
      <form class="filters" aria-label="Crisis filters" onSubmit={(e) => e.preventDefault()}>
        <Filter
          id="c-status"
          label="Status"
          value={filters.status}
          values={['active', 'acknowledged', 'archived', 'all']}
          onChange={set('status')}
        />
        <Filter
          id="c-severity"
          label="Severity"
          value={filters.severity}
          values={['all', ...SEVERITIES]}
          onChange={set('severity')}
        />
        <Filter
          id="c-review"
          label="Review"
          value={filters.review_status}
          values={['all', 'needs_review', 'unreviewed', 'unconfirmed', 'supported', 'disputed']}
          onChange={set('review_status')}
        />
        <Filter
          id="c-fresh"
          label="Evidence"
          value={filters.freshness}
          values={['all', 'fresh', 'stale', 'missing']}
          onChange={set('freshness')}
        />
        <Filter
          id="c-period"
          label="Detected in"
          value={filters.period}
          values={['1h', '24h', '7d', '30d']}
          onChange={set('period')}
        />
        <div class="field">
          <label for="c-keyword">Keyword</label>
          <input
            id="c-keyword"
            value={filters.keyword}
            onChange={(e) => set('keyword')(e.currentTarget.value)}
          />
        </div>
      </form>
      <ErrorNote error={events.error} />
      {!events.loading && !events.error && list.length === 0 ? (
        <Empty>
          No crisis events match. Crestwatch opens one when negative mentions about something you follow
          surge, or when a hazard source reports one; add interests under Account or widen the filters.
        </Empty>
      ) : null}
      {groupBySeverity(list).map(([severity, group]) => (
        <section key={severity} aria-labelledby={`sev-${severity}`}>
          <h2 id={`sev-${severity}`}>
            <span class={`sev sev-${severity}`}>{severity}</span> ({group.length})
          </h2>
          <ul class="events">
            {group.map((e) => (
              <li key={e.id}>
                <a href={`#/crisis/${e.id}`}>{e.title}</a> · {e.status} · review: {e.review_status ?? '–'} ·{' '}
                {formatTime(e.detected_at)}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

async function downloadExport(id: number): Promise<void> {
  // The export needs the key, which a plain link cannot carry: fetch it, then hand the browser a file.
  const html = await api<string>(
    withQuery(`/api/intelligence/crisis-events/${id}/export`, { format: 'html' }),
    {
      accept: 'text/html',
    },
  );
  const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `crisis-event-${id}.html`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function CrisisDetail({ id }: { id: number }) {
  const event = useLoad(
    () =>
      api<ResponseBody<'/api/intelligence/crisis-events/{id}/evidence'>>(
        `/api/intelligence/crisis-events/${id}/evidence`,
      ),
    [id],
  );
  const [assessment, setAssessment] = useState<NewReview['assessment']>('supported');
  const [rationale, setRationale] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const e = event.data;

  const act = async (action: ActionBody['action']) => {
    setError(null);
    try {
      await api(`/api/intelligence/crisis-events/${id}/action`, {
        method: 'POST',
        body: { action } satisfies ActionBody,
      });
      setNotice(`Event ${action}d.`);
      event.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  const review = async (ev: Event) => {
    ev.preventDefault();
    setError(null);
    try {
      await api(`/api/intelligence/crisis-events/${id}/reviews`, {
        method: 'POST',
        body: { assessment, rationale, evidence_version: e?.evidence_version ?? '' } satisfies NewReview,
      });
      setRationale('');
      setNotice('Review recorded.');
      event.reload();
    } catch (failure) {
      if (failure instanceof ApiProblem && failure.code === 'stale_evidence_version') {
        setError(
          new Error(
            `${failure.message} The evidence changed while you were reading it; the current evidence is now shown. ` +
              'Check it and submit your review again.',
          ),
        );
        event.reload();
      } else setError(failure);
    }
  };

  return (
    <section>
      <p>
        <a href="#/crisis">← Crisis desk</a>
      </p>
      <PageTitle>{e ? e.title : 'Crisis event'}</PageTitle>
      <ErrorNote error={event.error} />
      {e ? (
        <>
          <dl class="facts">
            <div>
              <dt>Severity</dt>
              <dd>
                <span class={`sev sev-${e.severity}`}>{e.severity}</span>
              </dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd data-testid="crisis-status">{e.status}</dd>
            </div>
            <div>
              <dt>Review status</dt>
              <dd data-testid="review-status">{e.review_status ?? '–'}</dd>
            </div>
            <div>
              <dt>Detected</dt>
              <dd>{formatTime(e.detected_at)}</dd>
            </div>
            <div>
              <dt>Evidence</dt>
              <dd>{e.freshness ?? '–'}</dd>
            </div>
          </dl>
          {e.summary ? <p>{e.summary}</p> : null}
          <div class="actions">
            {e.status === 'active' ? (
              <button type="button" onClick={() => act('acknowledge')}>
                Acknowledge
              </button>
            ) : null}
            {e.status !== 'archived' ? (
              <button type="button" class="secondary" onClick={() => act('archive')}>
                Archive
              </button>
            ) : null}
            {e.status !== 'active' ? (
              <button type="button" class="secondary" onClick={() => act('reopen')}>
                Reopen
              </button>
            ) : null}
            <button type="button" class="secondary" onClick={() => downloadExport(id).catch(setError)}>
              Export as HTML
            </button>
          </div>
          <p role="status">{notice}</p>
          <ErrorNote error={error} />
          <section class="card" aria-labelledby="evidence-title">
            <h2 id="evidence-title">Evidence</h2>
            {(e.source_refs ?? []).length === 0 ? (
              <Empty>
                No evidence captured for this event; review it on what the summary says, or wait for sources.
              </Empty>
            ) : (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Source</th>
                      <th scope="col">Excerpt</th>
                      <th scope="col">Link</th>
                      <th scope="col">Time</th>
                      <th scope="col">Content hash</th>
                      <th scope="col">Licence</th>
                    </tr>
                  </thead>
                  <tbody>
                    {(e.source_refs ?? []).map((r) => (
                      <tr key={r.id}>
                        <td>{r.source_id}</td>
                        <td class="excerpt">{r.excerpt}</td>
                        <td>
                          {r.source_url && /^https?:\/\//.test(r.source_url) ? (
                            <a href={r.source_url} rel="noopener noreferrer" target="_blank">
                              open
                            </a>
                          ) : (
                            '–'
                          )}
                        </td>
                        <td>{formatTime(r.observed_at)}</td>
                        <td>
                          <code title={r.content_hash}>{r.content_hash.slice(0, 12)}…</code>
                        </td>
                        <td>
                          {r.licence_url && /^https?:\/\//.test(r.licence_url) ? (
                            <a href={r.licence_url} rel="noopener noreferrer" target="_blank">
                              {r.attribution ?? 'licence'}
                            </a>
                          ) : (
                            (r.attribution ?? '–')
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <form class="card" onSubmit={review} aria-labelledby="review-title">
            <h2 id="review-title">Review</h2>
            <p class="hint">
              Your review applies to evidence version <code>{e.evidence_version ?? 'none'}</code>, the one
              shown above.
            </p>
            <label for="r-assessment">Assessment</label>
            <select
              id="r-assessment"
              value={assessment}
              onChange={(x) => setAssessment(x.currentTarget.value as NewReview['assessment'])}
            >
              <option value="supported">Supported by the evidence</option>
              <option value="unconfirmed">Unconfirmed</option>
              <option value="disputed">Disputed</option>
            </select>
            <label for="r-rationale">Rationale</label>
            <textarea
              id="r-rationale"
              required
              maxLength={2000}
              rows={3}
              value={rationale}
              onInput={(x) => setRationale(x.currentTarget.value)}
            />
            <button type="submit">Submit review</button>
            {(e.reviews ?? []).length > 0 ? (
              <ul class="reviews">
                {(e.reviews ?? []).map((r) => (
                  <li key={r.id}>
                    {formatTime(r.created_at)}: <strong>{r.assessment}</strong> (
                    {r.evidence_version.slice(0, 8)}) — {r.rationale}
                  </li>
                ))}
              </ul>
            ) : null}
          </form>
        </>
      ) : null}
    </section>
  );
}

export function CrisisPage({ id }: { id: number | null }) {
  return id === null ? <CrisisList /> : <CrisisDetail id={id} />;
}
