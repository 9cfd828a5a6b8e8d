// Alerts: the notification feed (mark read), webhooks (secret shown once, test, executions, delete) and the
// integrations' connection status. Recommendations, with their decision brief, have a page of their own.
import type { RequestBody, ResponseBody } from '@crestwatch/client';
import { useState } from 'preact/hooks';
import { api, withQuery } from '../api.ts';
import { Empty, ErrorNote, PageTitle, useLoad } from '../components/ui.tsx';
import { formatTime } from '../format.ts';

/** One delivery, as the test route answers it and the executions list holds it. */
type Execution = ResponseBody<'/api/integrations/webhooks/{id}/test', 'post'>;
type NewWebhook = RequestBody<'/api/integrations/webhooks', 'post'>;
type RecommendationActionBody = RequestBody<
  '/api/intelligence/recommendations/{recommendation_id}/action',
  'post'
>;

/**
 * Fired on `window` when notifications were marked read, so the header's bell asks for its count again
 * (it otherwise refreshes only on a page change).
 */
export const UNREAD_CHANGED = 'crestwatch:unread-changed';

function Notifications() {
  const feed = useLoad(
    () => api<ResponseBody<'/api/user/notifications/recent'>>('/api/user/notifications/recent?limit=20'),
    [],
  );
  const [error, setError] = useState<unknown>(null);
  const unread = (feed.data?.notifications ?? []).filter((n) => !n.is_read).map((n) => n.id);
  return (
    <section class="card" aria-labelledby="notes-title">
      <h2 id="notes-title">Notifications ({feed.data?.unread_count ?? 0} unread)</h2>
      <ErrorNote error={error ?? feed.error} />
      {feed.data && feed.data.notifications.length === 0 ? (
        <Empty>
          No notifications yet: follow topics (interests) and Crestwatch tells you when they move.
        </Empty>
      ) : null}
      <ul class="notes">
        {(feed.data?.notifications ?? []).map((n) => (
          <li key={n.id} class={n.is_read ? 'read' : 'unread'}>
            <strong>{n.title}</strong> <span class="hint">{formatTime(n.created_at)}</span>
            <br />
            {n.message}
          </li>
        ))}
      </ul>
      {unread.length > 0 ? (
        <button
          type="button"
          onClick={() =>
            api('/api/user/notifications/mark-read', {
              method: 'POST',
              body: { ids: unread } satisfies RequestBody<'/api/user/notifications/mark-read', 'post'>,
            }).then(() => {
              feed.reload();
              window.dispatchEvent(new Event(UNREAD_CHANGED));
            }, setError)
          }
        >
          Mark all shown as read
        </button>
      ) : null}
    </section>
  );
}

/** What a delivery came to, in words: "succeeded (HTTP 200)". */
function outcome(x: Execution): string {
  return `${x.status}${x.response_status ? ` (HTTP ${x.response_status})` : ''}${x.error ? `: ${x.error}` : ''}`;
}

/** `version` changes when a test was sent, so an open list shows the new delivery. */
function Executions({ id, version }: { id: number; version: number }) {
  const list = useLoad(
    () =>
      api<ResponseBody<'/api/integrations/webhooks/{id}/executions'>>(
        `/api/integrations/webhooks/${id}/executions`,
      ),
    [id, version],
  );
  return (
    <div>
      <ErrorNote error={list.error} />
      {list.data && list.data.executions.length === 0 ? <Empty>No deliveries yet: send a test.</Empty> : null}
      <ul>
        {(list.data?.executions ?? []).slice(0, 10).map((x) => (
          <li key={x.id}>
            {formatTime(x.created_at)} {x.event}: {outcome(x)}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Webhooks() {
  const hooks = useLoad(
    () => api<ResponseBody<'/api/integrations/webhooks'>>('/api/integrations/webhooks'),
    [],
  );
  const [url, setUrl] = useState('');
  const [trigger, setTrigger] = useState<NewWebhook['trigger_type']>('trend_velocity');
  const [threshold, setThreshold] = useState('75');
  const [secret, setSecret] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const [tested, setTested] = useState<{ id: number; execution: Execution; version: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = (task: Promise<unknown>) => task.then(hooks.reload, setError);
  // The test route answers with the delivery it made: say how it went and open the deliveries to show it.
  const sendTest = (id: number) => {
    setError(null);
    api<Execution>(`/api/integrations/webhooks/${id}/test`, { method: 'POST' }).then((execution) => {
      setTested({ id, execution, version: (tested?.version ?? 0) + 1 });
      setOpen(id);
      hooks.reload();
    }, setError);
  };
  const create = (event: Event) => {
    event.preventDefault();
    setError(null);
    run(
      api<ResponseBody<'/api/integrations/webhooks', 'post'>>('/api/integrations/webhooks', {
        method: 'POST',
        body: {
          url: url.trim(),
          trigger_type: trigger,
          delivery_mode: 'instant_stream',
          threshold_value: Number(threshold),
          cooldown_seconds: 600,
        } satisfies NewWebhook,
      }).then((made) => {
        setSecret(made.secret);
        setUrl('');
      }),
    );
  };
  return (
    <section class="card" aria-labelledby="hooks-title">
      <h2 id="hooks-title">Webhooks</h2>
      <form class="inline-form" onSubmit={create}>
        <label for="w-url">Destination URL</label>
        <input id="w-url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        <label for="w-trigger">Trigger</label>
        <select
          id="w-trigger"
          value={trigger}
          onChange={(e) => setTrigger(e.currentTarget.value as NewWebhook['trigger_type'])}
        >
          <option value="trend_velocity">Trend velocity crosses</option>
          <option value="trend_lifecycle">Trend lifecycle changes</option>
          <option value="crisis_event">My crisis events</option>
        </select>
        <label for="w-threshold">Threshold</label>
        <input
          id="w-threshold"
          type="number"
          min={0}
          max={100}
          value={threshold}
          onInput={(e) => setThreshold(e.currentTarget.value)}
        />
        <button type="submit">Create webhook</button>
      </form>
      {secret ? (
        <div class="secret-box" role="status">
          <p>The signing secret, shown only this once:</p>
          <code class="secret">{secret}</code>
          <button type="button" class="secondary" onClick={() => setSecret('')}>
            I have copied it
          </button>
        </div>
      ) : null}
      <ErrorNote error={error ?? hooks.error} />
      {hooks.data && hooks.data.webhooks.length === 0 ? (
        <Empty>No webhooks: add a URL above to get signed alerts in your own tools.</Empty>
      ) : null}
      <ul class="hooks">
        {(hooks.data?.webhooks ?? []).map((w) => (
          <li key={w.id}>
            <code>{w.url}</code> · {w.trigger_type} ≥ {w.threshold_value} ·{' '}
            {w.is_active ? 'active' : 'disabled'}{' '}
            <button
              type="button"
              class="secondary"
              aria-label={`Send test to ${w.url}`}
              onClick={() => sendTest(w.id)}
            >
              Send test
            </button>{' '}
            <button
              type="button"
              class="secondary"
              aria-expanded={open === w.id}
              aria-label={`Deliveries to ${w.url}`}
              onClick={() => setOpen(open === w.id ? null : w.id)}
            >
              Deliveries
            </button>{' '}
            <button
              type="button"
              class="danger"
              aria-label={`Delete webhook ${w.url}`}
              onClick={() =>
                confirm('Delete this webhook?') &&
                run(api(`/api/integrations/webhooks/${w.id}`, { method: 'DELETE' }))
              }
            >
              Delete
            </button>
            {tested?.id === w.id ? (
              <p role="status" data-testid="test-result">
                Test delivery {outcome(tested.execution)}
                {tested.execution.duration_ms === null ? '' : ` in ${tested.execution.duration_ms} ms`}.
              </p>
            ) : null}
            {open === w.id ? <Executions id={w.id} version={tested?.version ?? 0} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Integrations() {
  const chat = useLoad(
    () => api<ResponseBody<'/api/integrations/chat/status'>>('/api/integrations/chat/status'),
    [],
  );
  const forum = useLoad(
    () => api<ResponseBody<'/api/integrations/forum-ads/status'>>('/api/integrations/forum-ads/status'),
    [],
  );
  const describe = (data: { is_active: boolean } | undefined) =>
    data ? (data.is_active ? 'connected and working' : 'not connected') : '…';
  return (
    <section class="card" aria-labelledby="int-title">
      <h2 id="int-title">Integrations</h2>
      <ul>
        <li>Chat (Slack): {chat.error ? <ErrorNote error={chat.error} /> : describe(chat.data)}</li>
        <li>Forum ads (Reddit): {forum.error ? <ErrorNote error={forum.error} /> : describe(forum.data)}</li>
      </ul>
      <p class="hint">
        Connecting goes through each provider's sign-in; see the README's Integrations section.
      </p>
    </section>
  );
}

export function RecommendationsPage() {
  const [status, setStatus] = useState('new');
  const list = useLoad(
    () =>
      api<ResponseBody<'/api/intelligence/recommendations'>>(
        withQuery('/api/intelligence/recommendations', { status, limit: 20 }),
      ),
    [status],
  );
  const [error, setError] = useState<unknown>(null);
  const act = (id: number, action: RecommendationActionBody['action']) =>
    api(`/api/intelligence/recommendations/${id}/action`, {
      method: 'POST',
      body: { action } satisfies RecommendationActionBody,
    }).then(list.reload, setError);
  return (
    <section>
      <PageTitle>Recommendations</PageTitle>
      <p class="hint">
        What to do next, most urgent first. Confidence measures how complete the evidence is, not how likely
        the action is to work.
      </p>
      <label for="rec-status">Show</label>
      <select id="rec-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
        {['new', 'viewed', 'actioned', 'dismissed', 'all'].map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <ErrorNote error={error ?? list.error} />
      {list.data && list.data.recommendations.length === 0 ? (
        <Empty>No recommendations here: they come from your interests, crisis events and insights.</Empty>
      ) : null}
      <ul class="recs">
        {(list.data?.recommendations ?? []).map((r) => (
          <li key={r.id}>
            <strong>
              [{r.priority}] {r.title}
            </strong>
            <p>{r.decision_brief?.why_now ?? r.details}</p>
            <p class="hint">
              Status: <span data-testid="rec-status">{r.status}</span>. Confidence (evidence completeness):{' '}
              {r.decision_brief?.confidence?.level ?? '–'};{' '}
              {r.decision_brief?.actionable ? 'actionable now' : 'verify first'}.
            </p>
            <button type="button" class="secondary" onClick={() => act(r.id, 'viewed')}>
              Mark viewed
            </button>{' '}
            {r.decision_brief?.actionable ? (
              <>
                <button type="button" onClick={() => act(r.id, 'actioned')}>
                  Mark actioned
                </button>{' '}
              </>
            ) : null}
            <button type="button" class="secondary" onClick={() => act(r.id, 'dismissed')}>
              Dismiss
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function AlertsPage() {
  return (
    <section>
      <PageTitle>Alerts</PageTitle>
      <Notifications />
      <Webhooks />
      <Integrations />
    </section>
  );
}
