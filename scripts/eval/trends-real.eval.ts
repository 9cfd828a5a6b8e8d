// Replays all 22 CrisisLexT26 events as one shared stream through the real app and reports whether the trend
// list is made of real trends: few trends per post, none under TREND_MIN_POSTS, each event named near the top
// of the velocity list soon after it starts, and quiet hours not filled with noise.
//
// The stream: every post of the 22 events (allCrisisPosts: 23,733, any label, in time order; read at run time
// from ../shared/data/crisislex-t26, never copied), each its own account (author `u<post id>`: the data has no
// author column), source "x", spaced evenly over 48 hours of simulated time ending "now" (the current UTC hour's
// start, so runs are reproducible; as bench/ingest.ts spaces them over 24 h). The events' real dates are months apart; packed into 48 hours they follow one another
// (and overlap where they did), so one app sees two days of news with a new crisis about every 2 hours. A fresh
// app (throw-away SQLite database, ManualClock) ingests them through POST /api/signals in slots of 1 simulated
// minute; after each slot the clock moves to the slot's end and the trend engine is ticked until it reports no
// backlog (2,880 slots, every one ticked: 2½–5 CPU-minutes, more with more trends per post).
//
// Probes and goals:
// 1. trends per post (rows in `trends` / posts) ≤ 0.25: phrases mentioned once are not trends.
// 2. listed trends under TREND_MIN_POSTS (env, default 2): GET /api/trends?period=30d paged through (limit 100),
//    those with volume < TREND_MIN_POSTS. Keywords and interests are exempt, but this eval sends no keywords and
//    creates no interests, so every one counts. Goal 0.
// 3. per event: at every tick within 30 minutes of the event's first post, GET
//    /api/trends?sort_by=velocity&period=24h&limit=10; the event is found when a trend with velocity_score > 0
//    names it. "Names it": the trend's key (read from the database by id), title or any of its `aliases` (when
//    the API has them) holds, as a whole word, a term specific to the event. Terms come from the event's
//    event_description.json — location_description words, the words of its name, its keywords with '#' removed
//    (each as written and split at camel case: `#WaldoCanyonFire` → waldocanyonfire, waldo, canyon, fire) —
//    minus terms derived from another of the 22 events too, singular or plural ("earthquake", "floods", "fire",
//    "colorado", the Philippine hashtags: shared, so not specific) and minus stop-words (function words and a few
//    generic ones, STOP_WORDS). Hashtags write phrases together, so a phrase of the description is a term written
//    together too (`Colorado Springs` → coloradosprings; `#HighParkFire` also → highpark, its shared end word
//    dropped), and a trend's runs of 2–4 words count written together (`Metro-North` → metronorth). The terms
//    are printed per event. Goal ≥ 20 of 22 (2012_Philipinnes_floods keeps only its description's misspelling:
//    every other term of it is shared with the later Philippine events).
// 4. quiet hours: the 6 hours of the 48 with the fewest related posts (Informativeness "Related and informative"
//    or "Related - but not informative"); at the end of each, the top 20 by velocity (velocity_score > 0 only)
//    and how many of them name no event (the rule of 3, over all events): what a reader sees when little is
//    happening. Those holding a crisis term shared by several events (`Colorado`, `train crash`) are marked *.
//    Reported, no goal.
// 5. storage: the SQLite file per post after PRAGMA wal_checkpoint(TRUNCATE), trend_metrics and trend_hourly rows.
// Exits 0 whether or not the goals are met, 1 when it cannot run. Progress goes to stderr every ~5 %. EVAL_DEBUG=1
// prints, under each event not found, the velocity top 10 of its last probe (title, score/window).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { generateApiKey } from '../../src/modules/accounts/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import type { App } from '../../src/platform/http.ts';
import { allCrisisPosts, CRISISLEX_DIR, parseCsv } from './crisislex.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const SPAN_MS = 48 * HOUR;
const SLOT_MS = MIN;
const EVENT_WINDOW_MS = 30 * MIN;
const EVENT_TOP = 10;
const QUIET_HOURS = 6;
const QUIET_TOP = 20;
const MIN_POSTS = Number(process.env.TREND_MIN_POSTS ?? 2);
const GOALS = { trendsPerPost: 0.25, underMin: 0, eventsNamed: 20 };

/** Function words of the events' languages. */
const FUNCTION_WORDS = new Set(
  (
    'a an and are as at be by de del della di do dos das da du e el em en es et for from i il in is la las le les ' +
    'los na no o of on or os per the to todos un una uno y with'
  ).split(' '),
);
/** Stop-words: the function words, and generic words that would name any trend (`now`, `state`, `north`). */
const STOP_WORDS = new Set([
  ...FUNCTION_WORDS,
  ...(
    'new now city day weekend action high last line little state park south north op super stronger building ' +
    'traffic chance oil metro springs sand treasure pray prayer help relief rescue aid safe safety tips update ' +
    'updates victims vitimas suspect forca forcas deseja desejam tracing'
  ).split(' '),
]);

interface EventInfo {
  folder: string;
  name: string;
  terms: string[];
  first: number;
  foundAt: number | null;
  foundTitle: string;
  /** The last probe's top list (printed for events not found when EVAL_DEBUG is set). */
  lastTop: string;
}

interface Item {
  id: number;
  title: string;
  volume: number;
  velocity_score: number;
  velocity_window?: string;
  aliases?: unknown;
}

/** Lower case, accents removed (`Paraguaná` = `paraguana`), split into words. */
function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * `WaldoCanyonFire` → `Waldo Canyon Fire`, `FloodsPH` → `Floods PH`, `LAXShooting` → `LAX Shooting`. An
 * upper-case run before lower case stays whole (`COfire`, `PHalert`: as ambiguous as `ASantaMaria`).
 */
const camelSplit = (text: string) =>
  text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu}{2,})(\p{Lu}\p{Ll})/gu, '$1 $2');

/** Singular and plural are one term when deciding what is shared (`earthquakes` = `earthquake`). */
const stem = (term: string) => (term.length > 3 && term.endsWith('s') ? term.slice(0, -1) : term);

/**
 * An event's words (location_description, name, keywords as written and split at camel case) and its phrases
 * (the multi-word ones among those, as word lists).
 */
function derivedWords(desc: {
  name: string;
  location: { location_description: string };
  keywords: string[];
}) {
  const phrases = [desc.location.location_description, desc.name].map(words);
  for (const keyword of desc.keywords) {
    const raw = keyword.replace(/#/g, '');
    phrases.push(words(raw), words(camelSplit(raw)));
  }
  return { words: new Set(phrases.flat()), phrases: phrases.filter((p) => p.length > 1) };
}

/** A text's words and its runs of 2–4 words written together (`Metro-North` → metro, north, metronorth). */
function wordsAndJoins(text: string): string[] {
  const w = words(text);
  const out = [...w];
  for (let n = 2; n <= 4; n++) for (let i = 0; i + n <= w.length; i++) out.push(w.slice(i, i + n).join(''));
  return out;
}

/** The events whose terms a title, key or alias holds as whole words (or words written together). */
function namedEvents(texts: string[], events: EventInfo[]): EventInfo[] {
  const have = new Set(texts.flatMap(wordsAndJoins));
  return events.filter((e) => e.terms.some((t) => have.has(t)));
}

async function get(app: App, key: string, url: string): Promise<{ trends: Item[]; total: number }> {
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body);
}

const hhmm = (ms: number) => {
  const m = Math.round(ms / MIN);
  return `+${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

async function main() {
  let folders: string[];
  try {
    folders = fs
      .readdirSync(CRISISLEX_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    console.error(`No data at ${CRISISLEX_DIR}: the shared CrisisLexT26 folder is needed (never copied).`);
    process.exit(1);
  }
  if (folders.length === 0) {
    console.error(`No events in ${CRISISLEX_DIR}.`);
    process.exit(1);
  }

  // Each post's event and label, the first folder winning as in allCrisisPosts (folders in name order).
  const eventOf = new Map<string, number>();
  const related = new Set<string>();
  const derived: ReturnType<typeof derivedWords>[] = [];
  const events: EventInfo[] = [];
  for (const [index, folder] of folders.entries()) {
    const dir = path.join(CRISISLEX_DIR, folder);
    const desc = JSON.parse(fs.readFileSync(path.join(dir, `${folder}-event_description.json`), 'utf8'));
    derived.push(derivedWords(desc));
    events.push({ folder, name: desc.name, terms: [], first: 0, foundAt: null, foundTitle: '', lastTop: '' });
    for (const r of parseCsv(fs.readFileSync(path.join(dir, `${folder}-tweets_labeled.csv`), 'utf8')).slice(
      1,
    )) {
      const id = r[0]?.trim() ?? '';
      if (!/^\d+$/.test(id) || (r[1] ?? '').trim() === '' || eventOf.has(id)) continue;
      eventOf.set(id, index);
      if ((r[4] ?? '').trim().startsWith('Related')) related.add(id);
    }
  }
  // A term is specific to an event when no other event derives it (singular or plural). Terms: the event's
  // words, and its phrases written together, whole and without the shared words at their ends
  // (`Colorado Springs` → coloradosprings; `#HighParkFire` → highparkfire, highpark).
  const countSources = (sets: Set<string>[]) => {
    const counts = new Map<string, number>();
    for (const set of sets)
      for (const t of new Set([...set].map(stem))) counts.set(t, (counts.get(t) ?? 0) + 1);
    return counts;
  };
  const wordSources = countSources(derived.map((d) => d.words));
  const isShared = (w: string) => (wordSources.get(stem(w)) ?? 0) > 1;
  const allTerms = derived.map((d) => {
    const terms = new Set(d.words);
    for (const phrase of d.phrases) {
      terms.add(phrase.join(''));
      let from = 0;
      let to = phrase.length;
      while (from < to && isShared(phrase[from])) from++;
      while (to > from && isShared(phrase[to - 1])) to--;
      const core = phrase.slice(from, to);
      if (core.length > 1 && !core.every((w) => FUNCTION_WORDS.has(w))) terms.add(core.join(''));
    }
    return terms;
  });
  const sources = countSources(allTerms);
  for (const [i, e] of events.entries())
    e.terms = [...allTerms[i]].filter((t) => sources.get(stem(t)) === 1 && !STOP_WORDS.has(t)).sort();
  // Shown beside the quiet hours' unnamed trends: crisis terms of several events (`colorado`, `earthquake`).
  const shared = new Set(
    allTerms.flatMap((terms) =>
      [...terms].filter((t) => (sources.get(stem(t)) ?? 0) > 1 && !STOP_WORDS.has(t)),
    ),
  );

  const posts = allCrisisPosts();
  // "Now" on a whole UTC hour: hourly buckets and periods then fall the same way on every run (reproducible).
  const now = Math.floor(Date.now() / HOUR) * HOUR;
  const start = now - SPAN_MS;
  const spacing = SPAN_MS / posts.length;
  const stream = posts.map((p, i) => ({ ...p, at: now - (posts.length - i) * spacing }));
  for (const p of stream) {
    const e = events[eventOf.get(p.id)!];
    if (e.first === 0) e.first = p.at;
  }
  const hourRelated = new Array<number>(48).fill(0);
  for (const p of stream) if (related.has(p.id)) hourRelated[Math.floor((p.at - start) / HOUR)]++;
  const quiet = hourRelated
    .map((n, hour) => ({ hour, n }))
    .sort((a, b) => a.n - b.n || a.hour - b.hour)
    .slice(0, QUIET_HOURS)
    .sort((a, b) => a.hour - b.hour);
  const quietEnds = new Map(quiet.map((q) => [start + (q.hour + 1) * HOUR, q]));
  const quietResults: {
    hour: number;
    n: number;
    listed: number;
    unnamed: { title: string; shared: boolean }[];
  }[] = [];

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-trends-real-'));
  const dbFile = path.join(dir, 'eval.db');
  const clock = new ManualClock(start);
  const key = generateApiKey().key;
  const config = loadConfig({
    DATABASE_URL: `sqlite:${dbFile}`,
    DATA_DIR: dir,
    SECRET_KEY: 'eval-secret-key-0123456789abcdef0123456789',
    BOOTSTRAP_API_KEY: key,
    LOG_LEVEL: 'silent',
    SOURCES: 'none',
    NLP_WORKER_THREADS: '0',
    OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
    PLANS: JSON.stringify({ enterprise: { burst_per_second: 1_000_000 } }),
    ...(process.env.TREND_MIN_POSTS ? { TREND_MIN_POSTS: process.env.TREND_MIN_POSTS } : {}),
  });
  const app = await buildApp(config, { clock, logger: false, background: false });
  const { db, engine } = app.services;
  const started = performance.now();
  try {
    const keysOf = async (items: Item[]) => {
      const ids = items.map((t) => t.id);
      const rows =
        ids.length === 0
          ? []
          : await db.selectFrom('trends').select(['id', 'key']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.key]));
    };
    const textsOf = (item: Item, keys: Map<number, string>) => [
      item.title,
      keys.get(item.id) ?? '',
      ...(Array.isArray(item.aliases) ? item.aliases.filter((a): a is string => typeof a === 'string') : []),
    ];
    const topByVelocity = async (limit: number) => {
      const { trends } = await get(app, key, `/api/trends?sort_by=velocity&period=24h&limit=${limit}`);
      const moving = trends.filter((t) => t.velocity_score > 0);
      return { trends, moving, keys: await keysOf(moving) };
    };

    const slots = Math.ceil(SPAN_MS / SLOT_MS);
    let next = 0;
    let ticks = 0;
    let lastProgress = -1;
    for (let slot = 0; slot < slots; slot++) {
      const slotEnd = start + (slot + 1) * SLOT_MS;
      const batch: typeof stream = [];
      while (next < stream.length && stream[next].at < slotEnd) batch.push(stream[next++]);
      clock.set(slotEnd);
      if (batch.length > 0) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/signals',
          headers: { authorization: `Bearer ${key}` },
          payload: {
            signals: batch.map((p) => ({
              source: 'x',
              external_id: p.id,
              text: p.text,
              author: `u${p.id}`,
              url: `https://x.com/u${p.id}/status/${p.id}`,
              observed_at: new Date(p.at).toISOString(),
            })),
          },
        });
        const body = JSON.parse(res.body);
        if (res.statusCode !== 202 || body.rejected?.length > 0)
          throw new Error(`POST /api/signals: ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
      for (let pass = 0; ; pass++) {
        ticks++;
        if (!(await engine.tick()).backlog) break;
        if (pass > 10_000) throw new Error('the engine still reports a backlog after 10,000 passes');
      }

      const waiting = events.filter(
        (e) => e.foundAt === null && slotEnd > e.first && slotEnd <= e.first + EVENT_WINDOW_MS,
      );
      if (waiting.length > 0) {
        const { trends, moving, keys } = await topByVelocity(EVENT_TOP);
        const top = trends
          .map(
            (t) =>
              `${t.title} ${t.velocity_score.toFixed(0)}${t.velocity_window ? `/${t.velocity_window}` : ''}`,
          )
          .join(' | ');
        for (const e of waiting) e.lastTop = top;
        for (const item of moving) {
          for (const e of namedEvents(textsOf(item, keys), waiting)) {
            if (e.foundAt !== null) continue;
            e.foundAt = slotEnd;
            e.foundTitle = item.title;
          }
        }
      }
      const q = quietEnds.get(slotEnd);
      if (q) {
        const { moving, keys } = await topByVelocity(QUIET_TOP);
        const unnamed = moving.filter((t) => namedEvents(textsOf(t, keys), events).length === 0);
        quietResults.push({
          hour: q.hour,
          n: q.n,
          listed: moving.length,
          unnamed: unnamed.map((t) => ({
            title: t.title,
            shared: textsOf(t, keys)
              .flatMap(wordsAndJoins)
              .some((w) => shared.has(w)),
          })),
        });
      }

      const pct = Math.floor((20 * (slot + 1)) / slots);
      if (pct !== lastProgress) {
        lastProgress = pct;
        const stored = await db
          .selectFrom('trends')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        console.error(
          `trends-real: ${5 * pct} % (${hhmm(slotEnd - start)} simulated, ${next} posts, ${stored.n} trends, ` +
            `${ticks} ticks, ${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
      }
    }

    // 1. Trends per post.
    const count = async (table: 'trends' | 'trend_metrics' | 'trend_hourly') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const trends = await count('trends');
    const perPost = trends / posts.length;

    // 2. Listed trends under TREND_MIN_POSTS.
    let listed = 0;
    const under: Item[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await get(app, key, `/api/trends?period=30d&limit=100&offset=${offset}`);
      listed += page.trends.length;
      under.push(...page.trends.filter((t) => t.volume < MIN_POSTS));
      if (page.trends.length < 100) break;
    }

    // 5. Storage.
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
    const fileSize = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
    const bytes = fileSize(dbFile) + fileSize(`${dbFile}-wal`);
    const metricsRows = await count('trend_metrics');
    const hourlyRows = await count('trend_hourly');
    const seconds = (performance.now() - started) / 1000;

    console.log(
      `Stream: ${posts.length} posts of ${events.length} events over 48 h (one per ${(spacing / 1000).toFixed(1)} s), ` +
        `${slots} one-minute slots, ${ticks} engine passes, ${seconds.toFixed(0)} s.`,
    );
    const named = events.filter((e) => e.foundAt !== null).length;
    console.log(
      `\nPer event (top ${EVENT_TOP} by velocity, velocity_score > 0, within 30 min of its first post)`,
    );
    console.log(`${'event'.padEnd(30)} ${'first post'.padStart(10)}  ${'found'.padStart(7)}  trend`);
    for (const e of events)
      console.log(
        `${e.folder.padEnd(30)} ${hhmm(e.first - start).padStart(10)}  ` +
          `${(e.foundAt === null ? 'no' : `${Math.ceil((e.foundAt - e.first) / MIN)} min`).padStart(7)}  ${e.foundTitle}` +
          (process.env.EVAL_DEBUG && e.foundAt === null
            ? `\n${''.padEnd(33)}top at 30 min: ${e.lastTop}`
            : ''),
      );
    console.log('\nTerms that name each event (specific to it; shared terms and stop-words removed)');
    for (const e of events) console.log(`${e.folder.padEnd(30)} ${e.terms.join(', ') || '(none)'}`);

    console.log(`\nQuiet hours (fewest related posts): top ${QUIET_TOP} by velocity at the hour's end`);
    let quietListed = 0;
    let quietUnnamed = 0;
    let quietShared = 0;
    for (const q of quietResults) {
      quietListed += q.listed;
      quietUnnamed += q.unnamed.length;
      quietShared += q.unnamed.filter((t) => t.shared).length;
      console.log(
        `hour ${String(q.hour).padStart(2)} (${hhmm(q.hour * HOUR)}–${hhmm((q.hour + 1) * HOUR)}, ` +
          `${q.n} related posts): ${q.listed} moving, ${q.unnamed.length} name no event` +
          (q.unnamed.length > 0
            ? `: ${q.unnamed.map((t) => `${t.title}${t.shared ? '*' : ''}`).join(' | ')}`
            : ''),
      );
    }
    console.log(
      `quiet hours in total: ${quietUnnamed} of ${quietListed} moving trends name no event ` +
        `(${quietShared} of them, marked *, hold a crisis term shared by several events, e.g. colorado, earthquake)`,
    );

    console.log('\nStorage');
    console.log(
      `SQLite file ${(bytes / 1024 / 1024).toFixed(1)} MiB = ${Math.round(bytes / posts.length)} bytes/post; ` +
        `trend_metrics ${metricsRows} rows, trend_hourly ${hourlyRows} rows`,
    );

    const goals = [
      [
        `trends per post: ${trends} / ${posts.length} = ${perPost.toFixed(3)} (goal ≤ ${GOALS.trendsPerPost})`,
        perPost <= GOALS.trendsPerPost,
      ],
      [
        `listed trends (30d) with volume < ${MIN_POSTS}: ${under.length} of ${listed} (goal ${GOALS.underMin})` +
          (under.length > 0
            ? `, e.g. ${under
                .slice(0, 5)
                .map((t) => t.title)
                .join(' | ')}`
            : ''),
        under.length <= GOALS.underMin,
      ],
      [
        `events named in the top ${EVENT_TOP} within 30 min: ${named} of ${events.length} (goal ≥ ${GOALS.eventsNamed})`,
        named >= GOALS.eventsNamed,
      ],
    ] as const;
    console.log('\nSummary');
    for (const [text, met] of goals) console.log(`${text} — ${met ? 'met' : 'NOT met'}`);
    console.log(goals.every(([, met]) => met) ? 'Goal met.' : 'Goal NOT met.');
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exit(1);
}
