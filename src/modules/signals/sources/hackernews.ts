// Hacker News through its official Firebase API: the list of new story ids, then each item. HN ids only
// grow, so the cursor is the highest id already handled.
import {
  clampTime,
  count,
  engagement,
  ensureOk,
  hostOf,
  htmlToText,
  httpGet,
  httpUrl,
  LIMITS,
  parseJson,
  shortText,
  signalText,
} from './text.ts';
import { type PollingSource, type SourceContext, SourceError, type SourceSignal } from './types.ts';

interface HackerNewsSourceOptions {
  /** e.g. `https://hacker-news.firebaseio.com/v0`. */
  baseUrl: string;
  intervalMs: number;
  /** Items fetched per poll at most (default 100). */
  maxItems?: number;
}

/** An item as the API returns it (every field may be missing). */
interface HnItem {
  id?: unknown;
  type?: unknown;
  by?: unknown;
  time?: unknown;
  title?: unknown;
  url?: unknown;
  text?: unknown;
  score?: unknown;
  descendants?: unknown;
  dead?: unknown;
  deleted?: unknown;
}

const CONCURRENCY = 8;

/** `fn` over `items`, at most `limit` at a time, in order; stops starting new calls after a failure. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function itemSignal(raw: unknown, now: number): SourceSignal | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const item = raw as HnItem;
  if (item.dead === true || item.deleted === true) return null;
  if (item.type !== 'story' && item.type !== 'comment') return null;
  if (typeof item.id !== 'number' || !Number.isSafeInteger(item.id) || item.id <= 0) return null;
  const title = shortText(item.title, LIMITS.title);
  const text = signalText(title, typeof item.text === 'string' ? htmlToText(item.text) : null);
  if (text === null) return null;
  return {
    source: 'hackernews',
    external_id: String(item.id),
    text,
    title,
    url: httpUrl(item.url) ?? `https://news.ycombinator.com/item?id=${item.id}`,
    author: shortText(item.by, LIMITS.author),
    observed_at: clampTime(typeof item.time === 'number' ? item.time * 1000 : null, now),
    keywords: null,
    engagement: engagement({ likes: count(item.score), comments: count(item.descendants) }),
  };
}

function parseCursor(raw: string | null): number | null {
  return raw !== null && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

export function hackerNewsSource(options: HackerNewsSourceOptions): PollingSource {
  const base = options.baseUrl.replace(/\/+$/, '');
  const maxItems = options.maxItems ?? 100;
  const getJson = async (context: SourceContext, url: string) => {
    const answer = await httpGet(context, url, { accept: 'application/json' });
    ensureOk(answer, url);
    return parseJson(answer, url);
  };
  return {
    kind: 'poll',
    id: 'hackernews',
    name: 'Hacker News',
    attribution: 'Hacker News (Y Combinator)',
    // The API publishes no licence; Hacker News links its terms of use ("Legal") to this page.
    licence_url: 'https://www.ycombinator.com/legal/',
    coverage:
      'New Hacker News stories (title, text, score and comment count) from the official API; ' +
      'no licence is published for the content, which is used under Y Combinator’s terms of use.',
    intervalMs: options.intervalMs,
    async poll(context: SourceContext) {
      const listUrl = `${base}/newstories.json`;
      const list = await getJson(context, listUrl);
      if (!Array.isArray(list)) throw new SourceError(`${hostOf(listUrl)} sent an unexpected story list`);
      const seen = parseCursor(context.cursor);
      const ids = [
        ...new Set(list.filter((id): id is number => Number.isSafeInteger(id) && id > 0 && id > (seen ?? 0))),
      ].sort((a, b) => a - b);
      // First poll: the newest items. Later: the oldest unseen first, so a backlog is worked off without gaps.
      const batch = seen === null ? ids.slice(-maxItems) : ids.slice(0, maxItems);
      if (batch.length === 0) return { signals: [], cursor: context.cursor };
      const items = await mapLimit(batch, CONCURRENCY, (id) => getJson(context, `${base}/item/${id}.json`));
      const signals = items.flatMap((item) => itemSignal(item, context.now) ?? []);
      return { signals, cursor: String(batch[batch.length - 1]) };
    },
  };
}
