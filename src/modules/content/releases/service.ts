// GET /api/releases: the service's own changelog merged with configured release feeds (Atom or RSS). Feeds
// are polled on a timer (and on demand when due), cached in release_feeds, and a failing feed keeps serving
// its last entries while its /status component says degraded.
import type { NamedUrl } from '../../../config.ts';
import { type Clock, isoString } from '../../../platform/clock.ts';
import { ensureOk, hostOf, httpGet, parseFeed, retryDelayMs, sha256 } from '../../signals/index.ts';
import type { CheckResult } from '../status/service.ts';
import type { Release } from './changelog.ts';
import type { ReleaseFeedRow, ReleaseFeedStore } from './store.ts';

/** A feed is read again this long after a success. */
const RELEASE_POLL_MS = 15 * 60_000;
/** A request waits at most this long for due feeds before answering from the cache. */
const ON_DEMAND_WAIT_MS = 2000;
const MAX_ENTRIES_PER_FEED = 100;
const MAX_RELEASES = 500;
const MAX_VALIDATOR = 512;
const ACCEPT = 'application/atom+xml, application/rss+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1';

interface ReleaseFeed {
  /** The `source` of its entries and its component name on /status. */
  name: string;
  url: string;
}

interface ReleasesLog {
  warn(details: object, message: string): void;
}

/** Feed names from configuration: `name=url`, else the URL's host; made unique with `-2`, `-3`, … */
export function feedNames(feeds: NamedUrl[], taken: Iterable<string> = []): ReleaseFeed[] {
  const used = new Set(taken);
  return feeds.map((feed) => {
    const base = feed.name?.trim() || hostOf(feed.url);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    return { name, url: feed.url };
  });
}

const VERSION = /\bv?(\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.-]+)?)\b/;

/** The version a release title names (`v1.2.0`, `Crestwatch 0.10.0` → `1.2.0`, `0.10.0`), if any. */
export function versionOf(title: string): string | null {
  return VERSION.exec(title)?.[1] ?? null;
}

/**
 * Newest first (ties: the changelog first, then document order), deduplicated: an entry listed by several feeds
 * appears once, and a feed entry for a version the changelog lists on the same day is that release.
 */
export function mergeReleases(changelog: Release[], feeds: Release[]): Release[] {
  const seen = new Set<string>();
  const out: Release[] = [];
  const keys = (release: Release): string[] => {
    const day = release.published_at.slice(0, 10);
    const version = release.source === 'api' ? release.source_id : versionOf(release.title);
    return [
      `id:${release.id}`,
      ...(release.source !== 'api' && release.source_id ? [`entry:${release.source_id}`] : []),
      ...(version ? [`version:${version}@${day}`] : []),
    ];
  };
  for (const release of [...changelog, ...feeds]) {
    const own = keys(release);
    // Feed entries give way to the changelog, not to each other by version alone (feeds are other projects).
    const clash =
      own.some((k) => !k.startsWith('version:') && seen.has(k)) ||
      (release.source !== 'api' && own.some((k) => k.startsWith('version:') && seen.has(`api-${k}`)));
    if (clash) continue;
    for (const k of own) seen.add(release.source === 'api' && k.startsWith('version:') ? `api-${k}` : k);
    out.push(release);
  }
  // A stable sort: same-time entries keep the changelog's order (newest first) and each feed's own order.
  return out
    .sort(
      (a, b) =>
        Date.parse(b.published_at) - Date.parse(a.published_at) ||
        Number(b.source === 'api') - Number(a.source === 'api'),
    )
    .slice(0, MAX_RELEASES);
}

/** The entries of one feed document as releases; entries without a usable date are left out. */
function feedReleases(xml: string, feed: ReleaseFeed): Release[] {
  const parsed = parseFeed(xml, feed.url);
  const out: Release[] = [];
  for (const item of parsed.items) {
    if (item.date === null) continue;
    const sourceId = item.id?.trim() || item.link?.trim() || null;
    const title = item.title?.trim() || item.link?.trim() || versionOf(sourceId ?? '') || 'Release';
    const key = sourceId ?? `${title}\n${item.date}`;
    out.push({
      id: `${feed.name}:${sha256(key).slice(0, 16)}`,
      title: title.slice(0, 300),
      published_at: isoString(item.date)!,
      source: feed.name,
      source_id: sourceId ? sourceId.slice(0, 1000) : null,
    });
  }
  return out
    .sort((a, b) => Date.parse(b.published_at) - Date.parse(a.published_at))
    .slice(0, MAX_ENTRIES_PER_FEED);
}

function parseEntries(raw: string): Release[] {
  try {
    const value = JSON.parse(raw);
    return Array.isArray(value) ? (value as Release[]) : [];
  } catch {
    return [];
  }
}

interface ReleasesOptions {
  store: ReleaseFeedStore;
  clock: Clock;
  /** From the changelog, parsed at start. */
  changelog: Release[];
  feeds: ReleaseFeed[];
  fetch?: typeof fetch;
  log?: ReleasesLog;
  random?: () => number;
}

export class ReleasesService {
  private readonly controller = new AbortController();
  private ensured: Promise<void> | null = null;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly options: ReleasesOptions) {}

  get feeds(): readonly ReleaseFeed[] {
    return this.options.feeds;
  }

  /** Changelog and cached feed entries, merged; feeds that are due are read first (briefly waited for). */
  async list(): Promise<Release[]> {
    if (this.options.feeds.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.refreshDue(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, ON_DEMAND_WAIT_MS);
          timer.unref();
        }),
      ]).finally(() => clearTimeout(timer));
    }
    // In configuration order: of two feeds listing one entry, the one configured first is kept (the
    // database returns rows in no particular order).
    const order = new Map(this.options.feeds.map((f, i) => [f.name, i]));
    const rows = this.options.feeds.length > 0 ? await this.options.store.all() : [];
    const cached = rows
      .filter((row) => order.has(row.name))
      .sort((a, b) => order.get(a.name)! - order.get(b.name)!)
      .flatMap((row) => parseEntries(row.entries));
    return mergeReleases(this.options.changelog, cached);
  }

  /** Reads every feed whose next attempt is due; one pass at a time (callers share the running one). */
  refreshDue(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    this.refreshing = (async () => {
      try {
        await this.ensure();
        const now = this.options.clock.now();
        const rows = new Map((await this.options.store.all()).map((row) => [row.name, row]));
        await Promise.all(
          this.options.feeds
            .filter((feed) => (rows.get(feed.name)?.next_attempt_at ?? 0) <= now)
            .map((feed) => this.refresh(feed, rows.get(feed.name))),
        );
      } catch (error) {
        this.options.log?.warn({ err: error }, 'release feed refresh failed');
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  /** The /status check of one feed: degraded while its last read failed (cached entries still served). */
  async check(name: string): Promise<CheckResult> {
    const feed = this.options.feeds.find((f) => f.name === name);
    const row = await this.options.store.get(name);
    if (!feed || !row || row.url !== feed.url || row.last_attempt_at === null) {
      return { status: 'operational', description: 'Release feed not read yet.' };
    }
    const count = parseEntries(row.entries).length;
    if (row.consecutive_failures > 0) {
      const since =
        row.last_success_at === null ? 'never read successfully' : `cached ${isoString(row.last_success_at)}`;
      return {
        status: 'degraded',
        description:
          `Release feed failing (${row.consecutive_failures} in a row): ${row.last_error ?? 'unknown error'}. ` +
          `Serving ${count} entries (${since}).`,
      };
    }
    return {
      status: 'operational',
      description: `Release feed read ${isoString(row.last_success_at)}: ${count} entries.`,
    };
  }

  /** Aborts feed reads in flight and waits for the pass to record its outcome. */
  async stop(): Promise<void> {
    this.controller.abort();
    await this.refreshing;
  }

  private ensure(): Promise<void> {
    this.ensured ??= (async () => {
      for (const feed of this.options.feeds) await this.options.store.ensure(feed.name, feed.url);
    })().catch((error) => {
      this.ensured = null;
      throw error;
    });
    return this.ensured;
  }

  private async refresh(feed: ReleaseFeed, row: ReleaseFeedRow | undefined): Promise<void> {
    const { store, clock } = this.options;
    const now = clock.now();
    try {
      const headers: Record<string, string> = { accept: ACCEPT };
      if (row?.etag) headers['if-none-match'] = row.etag;
      if (row?.modified) headers['if-modified-since'] = row.modified;
      const answer = await httpGet(
        { cursor: null, now, signal: this.controller.signal, fetch: this.options.fetch ?? globalThis.fetch },
        feed.url,
        headers,
      );
      const next = clock.now() + RELEASE_POLL_MS;
      if (answer.status === 304) {
        await store.recordSuccess(feed.name, {
          attemptAt: now,
          entries: null,
          etag: null,
          modified: null,
          nextAttemptAt: next,
        });
        return;
      }
      ensureOk(answer, feed.url);
      const entries = feedReleases(answer.body, feed);
      const validator = (name: string) => {
        const value = answer.headers.get(name);
        return value !== null && value.length <= MAX_VALIDATOR ? value : null;
      };
      await store.recordSuccess(feed.name, {
        attemptAt: now,
        entries: JSON.stringify(entries),
        etag: validator('etag'),
        modified: validator('last-modified'),
        nextAttemptAt: next,
      });
    } catch (error) {
      if (this.controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      this.options.log?.warn({ feed: feed.name, error: message }, 'release feed failed');
      await store.recordFailure(feed.name, {
        attemptAt: now,
        error: message,
        nextAttemptAt: (failures) =>
          clock.now() + retryDelayMs(60_000, failures - 1, this.options.random ?? Math.random),
      });
    }
  }
}
