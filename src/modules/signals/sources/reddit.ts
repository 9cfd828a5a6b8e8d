// Reddit's public listing JSON for the newest posts of some subreddits. The cursor keeps the newest
// creation time seen (and the posts at that second) so older posts are skipped on the next poll.
import { retryAfterMs } from '../../../platform/retry.ts';
import {
  clampTime,
  cleanKeywords,
  count,
  engagement,
  ensureOk,
  externalId,
  hostOf,
  httpGet,
  httpUrl,
  LIMITS,
  parseJson,
  parseSeen,
  type SeenUpTo,
  shortText,
  signalText,
  USER_AGENT,
  unseenSince,
} from './text.ts';
import { type PollingSource, type SourceContext, SourceError, type SourceSignal } from './types.ts';

interface RedditSourceOptions {
  /** e.g. `https://www.reddit.com`. */
  baseUrl: string;
  subreddits: string[];
  intervalMs: number;
  /** Reddit refuses generic clients; defaults to `crestwatch/0.10 (trend intelligence)`. */
  userAgent?: string;
}

/** A post (`t3`) as the listing returns it (every field may be missing). */
interface RedditPost {
  name?: unknown;
  title?: unknown;
  selftext?: unknown;
  permalink?: unknown;
  author?: unknown;
  created_utc?: unknown;
  score?: unknown;
  num_comments?: unknown;
  over_18?: unknown;
  link_flair_text?: unknown;
  subreddit?: unknown;
}

// Placeholders Reddit puts where removed content was.
const REMOVED = new Set(['[removed]', '[deleted]']);

function postSignal(child: unknown, now: number): { signal: SourceSignal; time: number | null } | null {
  if (typeof child !== 'object' || child === null) return null;
  const { kind, data } = child as { kind?: unknown; data?: unknown };
  if (kind !== 't3' || typeof data !== 'object' || data === null) return null;
  const post = data as RedditPost;
  // Adult posts are kept out of trends.
  if (post.over_18 === true) return null;
  if (typeof post.name !== 'string' || post.name === '') return null;
  const title = shortText(post.title, LIMITS.title);
  const body = typeof post.selftext === 'string' && !REMOVED.has(post.selftext.trim()) ? post.selftext : null;
  const text = signalText(title, body);
  if (text === null) return null;
  const author = typeof post.author === 'string' && !REMOVED.has(post.author) ? post.author : null;
  const time =
    typeof post.created_utc === 'number' && Number.isFinite(post.created_utc)
      ? post.created_utc * 1000
      : null;
  const signal: SourceSignal = {
    source: 'reddit',
    external_id: externalId(post.name),
    text,
    title,
    url: typeof post.permalink === 'string' ? httpUrl(`https://www.reddit.com${post.permalink}`) : null,
    author: shortText(author, LIMITS.author),
    observed_at: clampTime(time, now),
    category:
      typeof post.subreddit === 'string' && /^\w{2,21}$/.test(post.subreddit) ? `r/${post.subreddit}` : null,
    keywords: cleanKeywords([post.link_flair_text]),
    engagement: engagement({ likes: count(post.score), comments: count(post.num_comments) }),
  };
  return { signal, time };
}

/** `Retry-After` (seconds or an HTTP date), else Reddit's own `x-ratelimit-reset`, as seconds from now. */
function retryAfterSeconds(headers: Headers, now: number): number | null {
  const ms = retryAfterMs(headers.get('retry-after') ?? headers.get('x-ratelimit-reset'), now);
  return ms === undefined ? null : Math.ceil(ms / 1000);
}

function parseCursor(raw: string | null): SeenUpTo | null {
  if (raw === null) return null;
  try {
    return parseSeen(JSON.parse(raw));
  } catch {
    return null;
  }
}

export function redditSource(options: RedditSourceOptions): PollingSource {
  const base = options.baseUrl.replace(/\/+$/, '');
  const subreddits = options.subreddits.map(encodeURIComponent).join('+');
  const url = `${base}/r/${subreddits}/new.json?limit=100&raw_json=1`;
  const userAgent = options.userAgent ?? USER_AGENT;
  return {
    kind: 'poll',
    id: 'reddit',
    name: 'Reddit',
    attribution: 'Reddit',
    licence_url: 'https://www.redditinc.com/policies/data-api-terms',
    coverage: `Newest posts of r/${options.subreddits.join(', r/')} (adult posts excluded), under Reddit's Data API terms.`,
    intervalMs: options.intervalMs,
    async poll(context: SourceContext) {
      const answer = await httpGet(context, url, { accept: 'application/json', 'user-agent': userAgent });
      if (answer.status === 429) {
        const seconds = retryAfterSeconds(answer.headers, context.now);
        const when = seconds === null ? 'retry later' : `retry after ${seconds} s`;
        throw new SourceError(`${hostOf(url)} answered 429 (rate limited; ${when})`, 429);
      }
      ensureOk(answer, url);
      const listing = parseJson(answer, url) as { kind?: unknown; data?: { children?: unknown } } | null;
      const children = listing?.kind === 'Listing' ? listing.data?.children : undefined;
      if (!Array.isArray(children)) throw new SourceError(`${hostOf(url)} sent an unexpected listing`);

      const posts = children.flatMap((child) => {
        const post = postSignal(child, context.now);
        return post === null ? [] : [post];
      });
      const { signals, seen: next } = unseenSince(parseCursor(context.cursor), posts, context.now);
      return { signals, cursor: next === null ? context.cursor : JSON.stringify(next) };
    },
  };
}
