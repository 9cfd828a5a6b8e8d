// The public demo feed (`GET /api/v1/public/demo-signals`): at most three recent observations Crestwatch holds
// that link to their source, dated, with their freshness and an honest sentence on what they cannot show.
// Built from stored signals (paid-media) or the hazard feeds' observations (resilience); kept for a minute.
import { isoString } from '../../platform/clock.ts';
import type { LinkedSignal } from '../signals/index.ts';

export const DEMO_MODES = ['paid-media', 'resilience'] as const;
export type DemoMode = (typeof DEMO_MODES)[number];

const HOUR_MS = 3_600_000;
/** How long an answer is reused: the route is public, so a burst of visitors costs one read. */
const DEMO_CACHE_MS = 60_000;
/** Observations older than this are not offered (twice the longest freshness window). */
const LOOKBACK_MS = 48 * HOUR_MS;
const MAX_SIGNALS = 3;
/** Candidates read to pick three from (preferring different sources). */
const CANDIDATES = 30;
const TITLE_MAX = 140;
/** Sources whose observations are hazard records, not posts. */
const HAZARD_SOURCES = ['usgs', 'environment_agency'];
/** News items stay fresh for a day; every other post source is social. */
const NEWS_WINDOW_MS = 24 * HOUR_MS;

export interface DemoSignal {
  title: string;
  source_url: string;
  source: string;
  observed_at: string;
  freshness: 'fresh' | 'stale';
  limitations: string;
}

export interface DemoSignalsResponse {
  signals: DemoSignal[];
  mode: DemoMode;
  fetched_at: string;
  schema_version: '1';
}

/** A hazard observation as the crisis module keeps it. */
interface HazardRecord {
  source: string;
  title: string;
  url: string;
  observed_at: number;
}

interface DemoSignalsDeps {
  clock: { now(): number };
  signals: { recentWithLinks(options: LinkedSignalQuery): Promise<LinkedSignal[]> };
  hazards: { hazardsSince(since: number, limit?: number): Promise<HazardRecord[]> };
  /** Freshness windows by source kind (`social`, `usgs`, `environment_agency`), ms. */
  freshnessWindows: Record<string, number>;
}

interface LinkedSignalQuery {
  withinMs: number;
  exceptSources: string[];
  limit: number;
}

/** True for links to the reserved example domains (RFC 2606/6761): only synthetic data points there. */
export function isSyntheticUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    /(^|\.)example\.(com|net|org)$/.test(host) ||
    /\.(example|test|invalid|localhost)$/.test(host) ||
    host === 'localhost'
  );
}

function httpUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

/** One sentence on what the observation cannot show. */
export function limitationsFor(source: string, url: string): string {
  if (isSyntheticUrl(url)) {
    return 'Synthetic demo data from Crestwatch’s built-in simulator; it is not a real post or event.';
  }
  switch (source) {
    case 'usgs':
      return 'A USGS earthquake record: automatic solutions are preliminary and revised, and impact on any place or operation is not assessed.';
    case 'environment_agency':
      return 'An Environment Agency flood alert for an area in England only; it is a warning for that area, not confirmed flooding at any address.';
    case 'news':
      return 'One news item as its feed published it; Crestwatch has not verified its claims.';
    default:
      return 'One public post as collected; it is unverified and does not show how widely the topic is discussed.';
  }
}

/** The source's freshness window: its own (hazard feeds), 24 h for news, the social window otherwise. */
export function freshnessWindowMs(source: string, windows: Record<string, number>): number {
  if (windows[source] !== undefined) return windows[source]!;
  if (source === 'news') return NEWS_WINDOW_MS;
  return windows.social ?? 6 * HOUR_MS;
}

/** A title of at most 140 characters: the item's own, else the start of its text, cut at a word. */
export function titleOf(title: string | null, text: string): string {
  const whole = (title ?? '').trim() || text.replace(/\s+/g, ' ').trim();
  if (whole.length <= TITLE_MAX) return whole;
  const cut = whole.slice(0, TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 80 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Up to three, newest first, one per source before a source repeats. */
function pick<T extends { source: string; observed_at: number }>(items: T[]): T[] {
  const sorted = [...items].sort((a, b) => b.observed_at - a.observed_at);
  const chosen: T[] = [];
  const sources = new Set<string>();
  for (const item of sorted) {
    if (chosen.length === MAX_SIGNALS) break;
    if (!sources.has(item.source)) {
      chosen.push(item);
      sources.add(item.source);
    }
  }
  for (const item of sorted) {
    if (chosen.length === MAX_SIGNALS) break;
    if (!chosen.includes(item)) chosen.push(item);
  }
  return chosen.sort((a, b) => b.observed_at - a.observed_at);
}

export class DemoSignals {
  private readonly cache = new Map<DemoMode, { at: number; answer: Promise<DemoSignalsResponse> }>();

  constructor(private readonly deps: DemoSignalsDeps) {}

  /** The answer for `mode`, reused for a minute (a failed read is not kept). */
  get(mode: DemoMode): Promise<DemoSignalsResponse> {
    const now = this.deps.clock.now();
    const hit = this.cache.get(mode);
    if (hit && now >= hit.at && now - hit.at < DEMO_CACHE_MS) return hit.answer;
    const answer = this.build(mode, now);
    this.cache.set(mode, { at: now, answer });
    answer.catch(() => {
      if (this.cache.get(mode)?.answer === answer) this.cache.delete(mode);
    });
    return answer;
  }

  private async build(mode: DemoMode, now: number): Promise<DemoSignalsResponse> {
    const items: { source: string; title: string; url: string; observed_at: number }[] = [];
    if (mode === 'paid-media') {
      const rows = await this.deps.signals.recentWithLinks({
        withinMs: LOOKBACK_MS,
        exceptSources: HAZARD_SOURCES,
        limit: CANDIDATES,
      });
      for (const row of rows) {
        items.push({
          source: row.source,
          title: titleOf(row.title, row.text),
          url: row.url,
          observed_at: row.observed_at,
        });
      }
    } else {
      const rows = await this.deps.hazards.hazardsSince(now - LOOKBACK_MS, 5000);
      for (const row of rows) {
        if (row.observed_at > now) continue;
        items.push({
          source: row.source,
          title: titleOf(row.title, ''),
          url: row.url,
          observed_at: Number(row.observed_at),
        });
      }
    }
    const usable = items.filter((item) => item.title !== '' && httpUrl(item.url));
    return {
      signals: pick(usable).map((item) => ({
        title: item.title,
        source_url: item.url,
        source: item.source,
        observed_at: isoString(item.observed_at)!,
        freshness:
          now - item.observed_at <= freshnessWindowMs(item.source, this.deps.freshnessWindows)
            ? 'fresh'
            : 'stale',
        limitations: limitationsFor(item.source, item.url),
      })),
      mode,
      fetched_at: isoString(now)!,
      schema_version: '1',
    };
  }
}
