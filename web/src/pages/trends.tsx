// The trends explorer: every filter of GET /api/trends, paging, a sparkline per row and live updates.
import type { ResponseBody, Schema, TrendUpdate } from '@crestwatch/client';
import { useEffect, useState } from 'preact/hooks';
import { api, withQuery } from '../api.ts';
import { Sparkline } from '../components/charts.tsx';
import { Empty, ErrorNote, PageTitle, useLoad } from '../components/ui.tsx';
import { formatGrowth, formatNumber } from '../format.ts';
import { openTrendStream } from '../live.ts';

const PAGE_SIZE = 20;

type TrendItem = Schema<'TrendItem'>;

interface Filters {
  period: string;
  start_date: string;
  end_date: string;
  category: string;
  search: string;
  interest: string;
  interests: string;
  exclude_sentiment: string;
  min_snapshots: string;
  sort_by: string;
  order: string;
}

const BLANK: Filters = {
  period: '24h',
  start_date: '',
  end_date: '',
  category: '',
  search: '',
  interest: '',
  interests: '',
  exclude_sentiment: '',
  min_snapshots: '',
  sort_by: 'volume',
  order: 'desc',
};

/** Sparkline series already fetched this session (hourly volume over 24 h), by trend id. */
const sparkCache = new Map<number, number[]>();

function useSparklines(ids: number[]): Map<number, number[]> {
  const [, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    for (const id of ids.filter((i) => !sparkCache.has(i))) {
      api<ResponseBody<'/api/trends/{trend_id}/analytics'>>(
        withQuery(`/api/trends/${id}/analytics`, { period: '24h' }),
      ).then(
        (a) => {
          sparkCache.set(
            id,
            a.data.map((p) => p.volume),
          );
          if (live) setVersion((v) => v + 1);
        },
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [ids.join(',')]);
  return sparkCache;
}

function applyUpdate(trends: TrendItem[], update: TrendUpdate, period: string): TrendItem[] {
  return trends.map((t) =>
    t.id !== update.trend_id
      ? t
      : {
          ...t,
          // The stream describes the 24-hour snapshot; other periods keep their own volume and growth.
          ...(period === '24h' ? { volume: update.volume, growth: update.growth } : {}),
          velocity_score: update.velocity,
          velocity_window: update.velocity_window,
          lifecycle_stage: update.lifecycle_stage,
          sentiment_category: update.sentiment_category,
        },
  );
}

function Select({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: [string, string][];
  onChange: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function Text({
  id,
  label,
  value,
  type = 'text',
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  type?: 'text' | 'date' | 'number';
  onChange: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type={type as 'text'} value={value} onInput={(e) => onChange(e.currentTarget.value)} />
    </div>
  );
}

export function TrendsPage() {
  const [draft, setDraft] = useState<Filters>(BLANK);
  const [filters, setFilters] = useState<Filters>(BLANK);
  const [offset, setOffset] = useState(0);
  const [rows, setRows] = useState<TrendItem[]>([]);
  const [live, setLive] = useState<'off' | 'on' | 'unavailable'>('off');
  const categories = useLoad(() => api<ResponseBody<'/api/trends/categories'>>('/api/trends/categories'), []);
  const interests = useLoad(() => api<ResponseBody<'/api/user/interests'>>('/api/user/interests'), []);
  const list = useLoad(
    () =>
      api<ResponseBody<'/api/trends'>>(
        withQuery('/api/trends', {
          ...filters,
          period: filters.start_date || filters.end_date ? undefined : filters.period,
          limit: PAGE_SIZE,
          offset,
        }),
      ),
    [filters, offset],
  );
  useEffect(() => setRows(list.data?.trends ?? []), [list.data]);
  const sparks = useSparklines(rows.map((r) => r.id));

  // The stream carries only the trends on this page (it is reopened with each new page of the list).
  const shown = list.data?.trends.map((t) => t.title).join('\n');
  useEffect(() => {
    let close: () => void = () => undefined;
    let cancelled = false;
    if (shown === undefined) return;
    Promise.all([
      api<ResponseBody<'/api/user/profile'>>('/api/user/profile'),
      api<ResponseBody<'/api/plans'>>('/api/plans'),
    ]).then(
      ([profile, plans]) => {
        if (cancelled) return;
        const plan = plans.find((p) => p.name === profile.subscription.plan_name);
        if (!plan?.live_stream) return setLive('unavailable');
        close = openTrendStream(
          (update) => setRows((current) => applyUpdate(current, update, filters.period)),
          (open) => setLive(open ? 'on' : 'off'),
          shown === '' ? [] : shown.split('\n'),
        );
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      close();
    };
  }, [filters.period, shown]);

  const set = (name: keyof Filters) => (value: string) => setDraft((d) => ({ ...d, [name]: value }));
  const total = list.data?.total ?? 0;
  const categoryOptions: [string, string][] = [
    ['', 'All categories'],
    ...(categories.data?.categories ?? []).map((c): [string, string] => [c.name, c.name]),
  ];
  const interestOptions: [string, string][] = [
    ['', 'Any'],
    ...(interests.data ?? []).map((i): [string, string] => [String(i.id), i.keyword]),
  ];

  return (
    <section>
      <PageTitle>Trends</PageTitle>
      <form
        class="filters"
        aria-label="Trend filters"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setFilters(draft);
        }}
      >
        <Select
          id="f-period"
          label="Period"
          value={draft.period}
          options={[
            ['1h', 'Last hour'],
            ['24h', 'Last 24 hours'],
            ['7d', 'Last 7 days'],
            ['30d', 'Last 30 days'],
          ]}
          onChange={set('period')}
        />
        <Text
          id="f-start"
          label="From (UTC day)"
          type="date"
          value={draft.start_date}
          onChange={set('start_date')}
        />
        <Text id="f-end" label="To (UTC day)" type="date" value={draft.end_date} onChange={set('end_date')} />
        <Select
          id="f-category"
          label="Category"
          value={draft.category}
          options={categoryOptions}
          onChange={set('category')}
        />
        <Text id="f-search" label="Search names" value={draft.search} onChange={set('search')} />
        <Select
          id="f-interest"
          label="One of my interests"
          value={draft.interest}
          options={interestOptions}
          onChange={set('interest')}
        />
        <Text
          id="f-interests"
          label="Keywords (comma-separated)"
          value={draft.interests}
          onChange={set('interests')}
        />
        <Select
          id="f-exclude"
          label="Leave out sentiment"
          value={draft.exclude_sentiment}
          options={[
            ['', 'Nothing'],
            ['negative', 'Negative'],
            ['negative,mixed', 'Negative and mixed'],
            ['positive', 'Positive'],
          ]}
          onChange={set('exclude_sentiment')}
        />
        <Text
          id="f-min"
          label="Seen in at least (hours)"
          type="number"
          value={draft.min_snapshots}
          onChange={set('min_snapshots')}
        />
        <Select
          id="f-sort"
          label="Sort by"
          value={draft.sort_by}
          options={[
            ['volume', 'Volume'],
            ['velocity', 'Velocity score'],
            ['growth', 'Growth'],
            ['timestamp', 'Last seen'],
            ['name', 'Name'],
          ]}
          onChange={set('sort_by')}
        />
        <Select
          id="f-order"
          label="Order"
          value={draft.order}
          options={[
            ['desc', 'Descending'],
            ['asc', 'Ascending'],
          ]}
          onChange={set('order')}
        />
        <div class="actions">
          <button type="submit">Apply filters</button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setDraft(BLANK);
              setFilters(BLANK);
              setOffset(0);
            }}
          >
            Reset
          </button>
        </div>
      </form>
      <p class="live" aria-live="polite">
        {live === 'on'
          ? 'Live: rows update as new mentions arrive.'
          : live === 'unavailable'
            ? 'Live updates need a plan with the live stream (scale or enterprise).'
            : 'Live updates are not connected.'}
      </p>
      <ErrorNote error={list.error} />
      {!list.loading && !list.error && rows.length === 0 ? (
        <Empty>
          No trends match. Widen the period or clear the filters; on a new installation the demo source fills
          this within a minute.
        </Empty>
      ) : null}
      {rows.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption>
              {total} trends; showing {offset + 1}–{offset + rows.length}
            </caption>
            <thead>
              <tr>
                <th scope="col">Trend</th>
                <th scope="col">Category</th>
                <th scope="col">Volume</th>
                <th scope="col">Velocity</th>
                <th scope="col">Growth</th>
                <th scope="col">Stage</th>
                <th scope="col">Last 24 h</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.id}>
                  <th scope="row">
                    <a href={`#/trends/${t.id}`}>{t.title}</a>
                  </th>
                  <td class="category">{t.category}</td>
                  <td>{formatNumber(t.volume)}</td>
                  <td>{formatNumber(t.velocity_score)}</td>
                  <td>{formatGrowth(t.growth)}</td>
                  <td>{t.lifecycle_stage}</td>
                  <td>
                    <Sparkline
                      values={sparks.get(t.id)}
                      label={`Hourly mentions of ${t.title} over 24 hours`}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <nav class="pager" aria-label="Pages">
        <button
          type="button"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
        >
          Previous page
        </button>
        <button
          type="button"
          disabled={offset + PAGE_SIZE >= total}
          onClick={() => setOffset(offset + PAGE_SIZE)}
        >
          Next page
        </button>
      </nav>
    </section>
  );
}
