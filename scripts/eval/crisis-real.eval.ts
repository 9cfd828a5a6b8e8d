// Replays real crisis posts (CrisisLexT26, ../shared/data/crisislex-t26: ~1,000 labelled posts for each of 22
// real crises of 2012–2013, read at run time, never copied) through the real app and reports, per event, whether
// and when a crisis event opened.
//
// For each event, twice — every post on one platform ("x"), then spread over four platforms by a hash of the post
// id (the id's own low bits are a sequence number, mostly 0, which would put ~70 % of the posts on one) — a fresh
// app (throw-away SQLite database, a ManualClock at the posts' real times) gets:
// - a user following the event the way a person would: one interest per collection keyword of the event's
//   event_description.json (normalised and deduplicated, as the interests API does), created an hour before the
//   first post;
// - a lead-in: the posts labelled "Not related" (keyword matches about other things), at their real spacing,
//   moved back so the last lands a minute before the first related post. Posts labelled "Not applicable" are left
//   out: they were not judged (many are about the crisis in another language);
// - then the related posts at their real times, from the first one to the end of the surge's first day.
// Posts are ingested in 10-second slots in time order and the trend engine (and with it the crisis detector) is
// ticked after each slot with posts (until method 2.2.0: minute by minute). The data has no account column: each post is its own account (retweets
// are near-duplicates and fold).
//
// Reported per event: the surge onset (the first related post followed by at least 5 more within 30 minutes —
// twelve an hour, the pace of a surge — so a stray early post does not start the clock), the related posts in
// the surge's first day (24 h from the onset), when the first crisis event opened (minutes after the onset and
// after the first related post, hours after the event's start day), its severity and the evidence that carried
// it, and the events opened during the lead-in (before the first related post). Goals (issue 17), over the events
// with ≥ 50 related posts in the first day: one platform ≥ 80 % opened, median ≤ 30 minutes after the onset; four
// platforms ≥ 90 %, median ≤ 15 minutes; no event in any lead-in. A replay stops once an event has opened.
// EVAL_EVENTS picks events by folder-name substring (comma-separated); EVAL_MODES=one or four picks one mode;
// EVAL_DEBUG=1 prints the summary of every event opened.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { normaliseKey } from '../../src/modules/text/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { CRISISLEX_DIR, parseCsv, postTime } from './crisislex.ts';
import { insertEvalUser } from './eval-user.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
// The service runs a detection pass every second and within 200 ms of new signals; the replay ticks at the end
// of each 10-second slot that holds posts, so an event is reported at most 10 s later than the service would open it.
const TICK_MS = 10_000;
const ONSET_POSTS = 6;
const ONSET_WITHIN_MS = 30 * MIN;
const FIRST_DAY_MIN_POSTS = 50;
const PLATFORMS = ['x', 'bluesky', 'reddit', 'mastodon'] as const;

const DATA = CRISISLEX_DIR;

interface Post {
  id: string;
  at: number;
  text: string;
  related: boolean;
}

interface EventData {
  name: string;
  folder: string;
  startDay: number;
  keywords: string[];
  posts: Post[];
}

function loadEvent(folder: string): EventData {
  const dir = path.join(DATA, folder);
  const desc = JSON.parse(fs.readFileSync(path.join(dir, `${folder}-event_description.json`), 'utf8'));
  const rows = parseCsv(fs.readFileSync(path.join(dir, `${folder}-tweets_labeled.csv`), 'utf8')).slice(1);
  const posts: Post[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    if (r.length < 5 || !/^\d+$/.test(r[0].trim()) || r[1].trim() === '') continue;
    const id = r[0].trim();
    if (seen.has(id)) continue;
    seen.add(id);
    const label = r[4].trim();
    // "Not applicable" posts were not judged (many are about the crisis in another language): left out.
    if (label === 'Not applicable') continue;
    posts.push({ id, at: postTime(id), text: r[1], related: label.startsWith('Related') });
  }
  posts.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
  return {
    name: desc.name as string,
    folder,
    startDay: Date.parse(`${desc.time.start_day}T00:00:00Z`),
    keywords: desc.keywords as string[],
    posts,
  };
}

interface Timeline {
  first: number;
  onset: number;
  firstDay: number;
  qualifies: boolean;
  end: number;
  leadIn: Post[];
  surge: Post[];
}

function timeline(event: EventData): Timeline {
  const related = event.posts.filter((p) => p.related);
  const first = related[0].at;
  const onsetIndex = related.findIndex(
    (p, i) =>
      i + ONSET_POSTS - 1 < related.length && related[i + ONSET_POSTS - 1].at < p.at + ONSET_WITHIN_MS,
  );
  const onset = related[onsetIndex === -1 ? 0 : onsetIndex].at;
  const end = onset + DAY;
  const firstDay = related.filter((p) => p.at >= onset && p.at < end).length;
  // The lead-in: the other posts at their real spacing, all moved back by the same amount so the last one falls
  // a minute before the first related post (not moved when they all came before it).
  const others = event.posts.filter((p) => !p.related);
  const shift = others.length === 0 ? 0 : Math.max(0, others[others.length - 1].at - (first - MIN));
  const leadIn = others.map((p) => ({ ...p, at: p.at - shift }));
  return {
    first,
    onset,
    firstDay,
    qualifies: firstDay >= FIRST_DAY_MIN_POSTS,
    end,
    leadIn,
    surge: related.filter((p) => p.at < end),
  };
}

type Mode = 'one' | 'four';

interface Outcome {
  openedAt: number | null;
  falseAlarms: number;
  severity: string;
  carriedBy: string;
  ticks: number;
}

/** Four platforms: the first byte of the id's SHA-1 picks one, uniformly (256 is a multiple of 4). */
function platformOf(id: string, mode: Mode): (typeof PLATFORMS)[number] {
  return mode === 'one' ? 'x' : PLATFORMS[createHash('sha1').update(id).digest()[0] % PLATFORMS.length];
}

function urlOf(platform: string, id: string): string {
  switch (platform) {
    case 'x':
      return `https://x.com/u${id}/status/${id}`;
    case 'bluesky':
      return `https://bsky.app/profile/u${id}.bsky.social/post/${id}`;
    case 'reddit':
      return `https://www.reddit.com/comments/${id}`;
    default:
      return `https://mastodon.social/@u${id}/${id}`;
  }
}

async function replay(event: EventData, line: Timeline, mode: Mode): Promise<Outcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crestwatch-crisis-real-'));
  const clock = new ManualClock(Math.min(line.first, line.leadIn[0]?.at ?? line.first) - HOUR);
  const config = loadConfig({
    DATABASE_URL: `sqlite:${path.join(dir, 'eval.db')}`,
    DATA_DIR: dir,
    SECRET_KEY: 'eval-secret-key-0123456789abcdef0123456789',
    LOG_LEVEL: 'silent',
    SOURCES: 'none',
    NLP_WORKER_THREADS: '0',
    OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
  });
  const app = await buildApp(config, { clock, logger: false, background: false });
  const { db, signals, engine, interests } = app.services;
  try {
    const now = clock.now();
    const user = await insertEvalUser(app, 'eval@example.com', now);
    const keys = new Set<string>();
    for (const keyword of event.keywords) {
      const key = normaliseKey(keyword.trim().replace(/^#/, ''));
      if (key === null || keys.has(key)) continue;
      keys.add(key);
      await interests.create(user.id, { keyword: keyword.trim() });
    }
    const posts = [...line.leadIn, ...line.surge].sort((a, b) => a.at - b.at);
    const firstEvent = async () =>
      db
        .selectFrom('crisis_events')
        .select(['detected_at', 'severity', 'corroboration'])
        .where('user_id', '=', user.id)
        .where('kind', '=', 'social')
        .orderBy('detected_at')
        .orderBy('id')
        .execute();
    let ticks = 0;
    let i = 0;
    while (i < posts.length) {
      const slotEnd = Math.floor(posts[i].at / TICK_MS) * TICK_MS + TICK_MS;
      const batch: Post[] = [];
      while (i < posts.length && posts[i].at < slotEnd) batch.push(posts[i++]);
      clock.set(slotEnd);
      const result = await signals.ingest(
        batch.map((p) => {
          const platform = platformOf(p.id, mode);
          return {
            source: platform,
            external_id: p.id,
            text: p.text,
            author: `u${p.id}`,
            url: urlOf(platform, p.id),
            observed_at: new Date(p.at).toISOString(),
          };
        }),
      );
      if (result.rejected.length > 0) throw new Error(`rejected: ${JSON.stringify(result.rejected[0])}`);
      await engine.tick();
      ticks++;
      if (slotEnd > line.first) {
        const opened = (await firstEvent()).filter((e) => Number(e.detected_at) >= line.first);
        if (opened.length > 0) break;
      }
    }
    const events = await firstEvent();
    if (process.env.EVAL_DEBUG) {
      const jobs = await db.selectFrom('jobs').select('payload').where('type', '=', 'domain-event').execute();
      for (const j of jobs) {
        const p = JSON.parse(j.payload);
        if (p.type !== 'crisis.event.opened') continue;
        const at = Date.parse(p.data.detected_at);
        console.log(`  [${((at - line.first) / MIN).toFixed(0)} min] ${p.data.summary}`);
      }
    }
    const falseAlarms = events.filter((e) => Number(e.detected_at) < line.first).length;
    const real = events.find((e) => Number(e.detected_at) >= line.first);
    const carried = real?.corroboration
      ? (JSON.parse(real.corroboration) as { evidence?: { carried_by?: string[] } }).evidence?.carried_by
      : undefined;
    return {
      openedAt: real ? Number(real.detected_at) : null,
      falseAlarms,
      severity: real?.severity ?? '',
      carriedBy: carried?.join('+') ?? '',
      ticks,
    };
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const fmt = (x: number | null, digits = 0) => (x === null || Number.isNaN(x) ? '—' : x.toFixed(digits));

async function main() {
  if (!fs.existsSync(DATA)) {
    console.error(
      `No data at ${DATA}: the shared CrisisLexT26 folder is needed (never copied into the project).`,
    );
    process.exit(1);
  }
  const only = (process.env.EVAL_EVENTS ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const modes: Mode[] =
    process.env.EVAL_MODES === 'one'
      ? ['one']
      : process.env.EVAL_MODES === 'four'
        ? ['four']
        : ['one', 'four'];
  const folders = fs
    .readdirSync(DATA)
    .filter((f) => fs.statSync(path.join(DATA, f)).isDirectory())
    .filter((f) => only.length === 0 || only.some((o) => f.toLowerCase().includes(o)))
    .sort();
  const goals: Record<Mode, { share: number; median: number }> = {
    one: { share: 0.8, median: 30 },
    four: { share: 0.9, median: 15 },
  };
  const summary: string[] = [];
  let allMet = true;
  for (const mode of modes) {
    console.log(
      `\n${mode === 'one' ? 'One platform (every post on x)' : 'Four platforms (x, bluesky, reddit, mastodon by a hash of the post id)'}`,
    );
    console.log(
      'event                           related  day-1  onset-first  opened  min-after-onset  min-after-first  h-after-start-day  severity  carried-by               lead-in-alarms',
    );
    const delays: number[] = [];
    let qualifying = 0;
    let opened = 0;
    let falseAlarms = 0;
    for (const folder of folders) {
      const event = loadEvent(folder);
      const line = timeline(event);
      const started = performance.now();
      const out = await replay(event, line, mode);
      const seconds = (performance.now() - started) / 1000;
      falseAlarms += out.falseAlarms;
      const afterOnset = out.openedAt === null ? null : (out.openedAt - line.onset) / MIN;
      if (line.qualifies) {
        qualifying++;
        if (out.openedAt !== null) {
          opened++;
          delays.push(afterOnset!);
        }
      }
      console.log(
        [
          `${folder}${line.qualifies ? '' : ' (<50)'}`.padEnd(32),
          String(event.posts.filter((p) => p.related).length).padStart(7),
          String(line.firstDay).padStart(6),
          `${fmt((line.onset - line.first) / MIN)} min`.padStart(12),
          (out.openedAt === null ? 'no' : 'yes').padStart(7),
          fmt(afterOnset).padStart(16),
          fmt(out.openedAt === null ? null : (out.openedAt - line.first) / MIN).padStart(16),
          fmt(out.openedAt === null ? null : (out.openedAt - event.startDay) / HOUR, 1).padStart(18),
          out.severity.padStart(9),
          `  ${out.carriedBy}`.padEnd(25),
          String(out.falseAlarms).padStart(14),
          `  (${out.ticks} ticks, ${seconds.toFixed(0)} s)`,
        ].join(' '),
      );
    }
    const share = qualifying === 0 ? 0 : opened / qualifying;
    const med = median(delays);
    const met = share >= goals[mode].share && med <= goals[mode].median && falseAlarms === 0;
    allMet &&= met;
    const line =
      `${mode === 'one' ? 'one platform' : 'four platforms'}: opened for ${opened}/${qualifying} events with ` +
      `≥ ${FIRST_DAY_MIN_POSTS} related posts in the first day (${(100 * share).toFixed(0)} %), median ` +
      `${fmt(med, 1)} min after the onset (range ${fmt(Math.min(...delays))}–${fmt(Math.max(...delays))}); ` +
      `${falseAlarms} events in the lead-ins (goal: ≥ ${100 * goals[mode].share} %, ≤ ${goals[mode].median} min, 0) ` +
      `— ${met ? 'met' : 'NOT met'}`;
    summary.push(line);
    console.log(`\n${line}`);
  }
  console.log(`\n${summary.join('\n')}`);
  console.log(allMet ? 'Goal met.' : 'Goal NOT met.');
}

await main();
