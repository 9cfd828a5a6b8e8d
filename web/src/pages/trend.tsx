// One trend: the analytics chart (every point the route returns; zoomable), lifecycle, velocity score with its
// explanation, platform mix, and the AI insight with a Generate button that follows the task.
import type { RequestBody, ResponseBody } from '@crestwatch/client';
import { useEffect, useState } from 'preact/hooks';
import { api, withQuery } from '../api.ts';
import { TimeChart } from '../components/charts.tsx';
import { Empty, ErrorNote, PageTitle, useLoad } from '../components/ui.tsx';
import { formatGrowth, formatNumber, formatTime, platformShares } from '../format.ts';

/** What the insight task's status route answers. */
type TaskStatus = ResponseBody<'/api/trends/ai-insights/status/{task_id}'>;

/** How often the page asks for the task's status while it runs. */
const POLL_MS = 1000;

function InsightPanel({ id }: { id: number }) {
  const insight = useLoad(
    () => api<ResponseBody<'/api/trends/{trend_id}/ai-insights'>>(`/api/trends/${id}/ai-insights`),
    [id],
  );
  const [task, setTask] = useState<{ id: string; status: TaskStatus['status'] } | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (!task || task.status === 'succeeded' || task.status === 'failed') return;
    const timer = setTimeout(async () => {
      try {
        const status = await api<TaskStatus>(`/api/trends/ai-insights/status/${encodeURIComponent(task.id)}`);
        setTask({ id: task.id, status: status.status });
        if (status.status === 'succeeded') insight.reload();
        if (status.status === 'failed') setError(new Error(status.error ?? 'The insight task failed.'));
      } catch (failure) {
        setError(failure);
        setTask(null);
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [task]);

  const generate = async () => {
    setError(null);
    try {
      const accepted = await api<ResponseBody<'/api/trends/{trend_id}/ai-insights/generate', 'post'>>(
        `/api/trends/${id}/ai-insights/generate`,
        {
          method: 'POST',
          body: {} satisfies RequestBody<'/api/trends/{trend_id}/ai-insights/generate', 'post'>,
        },
      );
      setTask({ id: accepted.task_id, status: accepted.status });
    } catch (failure) {
      setError(failure);
    }
  };

  const running = task !== null && (task.status === 'queued' || task.status === 'running');
  const data = insight.data;
  return (
    <section class="card" aria-labelledby="insight-title">
      <h2 id="insight-title">AI insight</h2>
      <button type="button" onClick={generate} disabled={running}>
        {data ? 'Generate a new insight' : 'Generate insight'}
      </button>
      <p role="status" class="task">
        {task ? `Task ${task.status}${running ? '…' : '.'}` : ''}
      </p>
      <ErrorNote error={error ?? insight.error} />
      {data ? (
        <div class="insight">
          <p>
            <strong>Sentiment:</strong> {data.sentiment_category ?? '–'}. {data.sentiment_summary}
          </p>
          {data.key_themes && data.key_themes.length > 0 ? (
            <p>
              <strong>Key themes:</strong> {data.key_themes.slice(0, 8).join(', ')}
            </p>
          ) : null}
          <p>
            <strong>Brand safety:</strong> {data.brand_safety?.level ?? '–'}
          </p>
          <p class="hint">
            {data.llm_model_used} · {formatTime(data.generated_at)} · {data.usage_count ?? 0} of{' '}
            {data.usage_limit ?? 'unlimited'} generations this month. {data.analysis_notes}
          </p>
        </div>
      ) : insight.loading ? null : (
        <Empty>No insight yet: press Generate to analyse this trend's recent mentions.</Empty>
      )}
    </section>
  );
}

export function TrendPage({ id }: { id: number }) {
  const [period, setPeriod] = useState('7d');
  const trend = useLoad(() => api<ResponseBody<'/api/trends/{trend_id}'>>(`/api/trends/${id}`), [id]);
  const analytics = useLoad(
    () =>
      api<ResponseBody<'/api/trends/{trend_id}/analytics'>>(
        withQuery(`/api/trends/${id}/analytics`, { period }),
      ),
    [id, period],
  );
  const t = trend.data;
  const a = analytics.data;
  return (
    <section>
      <p>
        <a href="#/trends">← All trends</a>
      </p>
      <PageTitle>{t ? t.title : 'Trend'}</PageTitle>
      <ErrorNote error={trend.error} />
      {t ? (
        <dl class="facts">
          <div>
            <dt>Category</dt>
            <dd>{t.category}</dd>
          </div>
          {t.aliases.length > 0 ? (
            <div>
              <dt>Also written</dt>
              <dd>{t.aliases.join(', ')}</dd>
            </div>
          ) : null}
          <div>
            <dt>Lifecycle</dt>
            <dd>
              {t.lifecycle_stage} ({t.overall_trend})
            </dd>
          </div>
          <div>
            <dt>Velocity score</dt>
            <dd>
              {formatNumber(t.velocity_score)} / 100 (over {t.velocity_window})
            </dd>
          </div>
          <div>
            <dt>Volume (24 h)</dt>
            <dd>
              {formatNumber(t.volume)} ({formatGrowth(t.growth)})
            </dd>
          </div>
          <div>
            <dt>Sentiment</dt>
            <dd>{t.sentiment_category}</dd>
          </div>
        </dl>
      ) : null}
      {t ? <p class="explain">{t.meta_description}</p> : null}
      <section class="card" aria-labelledby="chart-title">
        <h2 id="chart-title">Mentions over time</h2>
        <div class="field inline">
          <label for="a-period">Period</label>
          <select id="a-period" value={period} onChange={(e) => setPeriod(e.currentTarget.value)}>
            <option value="1h">Last hour (per minute)</option>
            <option value="24h">Last 24 hours (per hour)</option>
            <option value="7d">Last 7 days (per hour)</option>
            <option value="30d">Last 30 days (per day)</option>
          </select>
        </div>
        <ErrorNote error={analytics.error} />
        {a ? (
          <>
            <TimeChart
              points={a.data.map((p) => ({ timestamp: p.timestamp, value: p.volume }))}
              label="Mentions"
            />
            <p>
              {formatNumber(a.current_volume)} mentions, {formatNumber(a.velocity_per_hour)} per hour,{' '}
              {a.velocity_trend}; {formatGrowth(a.volume_change_percent)} against the period before.
            </p>
          </>
        ) : null}
      </section>
      {t ? (
        <section class="card" aria-labelledby="platforms-title">
          <h2 id="platforms-title">Platform mix</h2>
          {platformShares(t.platforms).length === 0 ? (
            <Empty>No mentions in the last 24 hours.</Empty>
          ) : (
            <ul class="bars">
              {platformShares(t.platforms).map((p) => (
                <li key={p.name}>
                  <span class="bar-label">{p.name}</span>
                  <meter min={0} max={1} value={p.share} aria-label={`${p.name} share`} />
                  <span>{Math.round(p.share * 100)} %</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      <InsightPanel id={id} />
    </section>
  );
}
