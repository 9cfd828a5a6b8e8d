// Scripted scenarios for the crisis-detection evaluation: real crises, loud-but-positive launches,
// single-source rants and duplicated spam. Deterministic (seeded), each about its own topic.
import Type from 'typebox';
import { loadJson } from '../../src/platform/data-files.ts';

const Words = Type.Array(Type.String({ minLength: 1 }), { minItems: 1 });

export interface ScriptedSignal {
  /** Minutes from the start of the surge phase (negative = baseline, before it). */
  minute: number;
  source: string;
  author: string;
  text: string;
  url?: string;
}

export interface Scenario {
  name: string;
  kind: 'crisis' | 'positive-launch' | 'single-source-rant' | 'duplicated-spam' | 'steady-chatter';
  topic: string;
  /** Whether a communications team must hear about it. */
  expectEvent: boolean;
  signals: ScriptedSignal[];
}

/** The words scenario posts are made of, and the (fictional) company names they are about: data/README.md. */
export function readScenarioWords(dir: URL) {
  return loadJson(
    new URL('crisis-scenario-words.json', dir),
    Type.Object(
      { negative: Words, negative_strong: Words, positive: Words, filler: Words, topics: Words },
      { additionalProperties: false },
    ),
  );
}

const WORDS = readScenarioWords(new URL('./data/', import.meta.url));
const NEG = WORDS.negative;
const NEG_STRONG = WORDS.negative_strong;
const POS = WORDS.positive;
const FILL = WORDS.filler;
const TOPICS = WORDS.topics;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function text(topic: string, tone: 'negative' | 'positive' | 'neutral', r: () => number): string {
  const pick = <T>(list: T[]) => list[Math.floor(r() * list.length)];
  const words: string[] = [];
  for (let w = 0; w < 8 + Math.floor(r() * 6); w++) words.push(pick(FILL));
  if (tone === 'negative') {
    words.splice(1, 0, pick(NEG_STRONG));
    words.splice(5, 0, pick(NEG));
  } else if (tone === 'positive') {
    words.splice(1, 0, pick(POS));
    words.splice(5, 0, pick(POS));
  }
  const at = Math.floor(r() * 3);
  words.splice(at, 0, topic);
  return words.join(' ');
}

const url = (source: string, id: string) => `https://${source}.example.org/post/${id}`;

/** A calm day before the surge: about one mention an hour, mixed tone, on two platforms. */
function baseline(topic: string, r: () => number, tag: string): ScriptedSignal[] {
  const out: ScriptedSignal[] = [];
  for (let h = 1; h <= 12; h++) {
    const tone = r() < 0.25 ? 'negative' : r() < 0.5 ? 'positive' : 'neutral';
    const source = r() < 0.5 ? 'reddit' : 'x';
    out.push({
      minute: -h * 60 + Math.floor(r() * 50),
      source,
      author: `${tag}-calm${h}`,
      text: text(topic, tone, r),
      url: url(source, `${tag}-b${h}`),
    });
  }
  return out;
}

export function scenarios(): Scenario[] {
  const out: Scenario[] = [];
  let t = 0;
  const topic = () => TOPICS[t++];

  // Real crises: negative posts ramping up over 30 minutes on 2–4 platforms, from many accounts.
  const crisisShapes = [
    { platforms: ['reddit', 'x', 'bluesky'], perMinute: 1.5, minutes: 30 },
    { platforms: ['x', 'news'], perMinute: 1, minutes: 30 },
    { platforms: ['reddit', 'hackernews'], perMinute: 0.7, minutes: 40 },
    { platforms: ['bluesky', 'x', 'reddit', 'news'], perMinute: 3, minutes: 20 },
    { platforms: ['x', 'reddit'], perMinute: 0.5, minutes: 45 },
    { platforms: ['news', 'reddit', 'x'], perMinute: 2, minutes: 25 },
    { platforms: ['x', 'bluesky'], perMinute: 1.2, minutes: 30 },
    { platforms: ['reddit', 'x', 'hackernews'], perMinute: 0.8, minutes: 35 },
  ];
  crisisShapes.forEach((shape, k) => {
    const r = rng(100 + k);
    const name = topic();
    const signals = baseline(name, r, `c${k}`);
    let acc = 0;
    let n = 0;
    for (let m = 0; m < shape.minutes; m++) {
      acc += shape.perMinute;
      while (acc >= 1) {
        acc -= 1;
        const source = shape.platforms[n % shape.platforms.length];
        const domain = source === 'news' ? `news${n % 3}` : source;
        signals.push({
          minute: m,
          source,
          author: `c${k}-u${n}`,
          text: text(name, r() < 0.85 ? 'negative' : 'neutral', r),
          url: url(domain, `c${k}-${n}`),
        });
        n++;
      }
    }
    out.push({
      name: `crisis ${k + 1} (${shape.platforms.join('+')}, ${shape.perMinute}/min)`,
      kind: 'crisis',
      topic: name,
      expectEvent: true,
      signals,
    });
  });

  // Loud launches: many positive posts on 3 platforms, a few grumbles.
  for (let k = 0; k < 5; k++) {
    const r = rng(200 + k);
    const name = topic();
    const signals = baseline(name, r, `p${k}`);
    for (let n = 0; n < 60; n++) {
      const source = ['reddit', 'x', 'bluesky'][n % 3];
      const tone = n % 20 === 7 ? 'negative' : 'positive';
      signals.push({
        minute: Math.floor(n / 3),
        source,
        author: `p${k}-u${n}`,
        text: text(name, tone, r),
        url: url(source, `p${k}-${n}`),
      });
    }
    out.push({ name: `launch ${k + 1}`, kind: 'positive-launch', topic: name, expectEvent: false, signals });
  }

  // Single-source rants: one account posting angrily and often; or thirty different accounts on one platform,
  // which since method 2.0.0 (issue 17: "a surge seen only on one platform opens an event when enough
  // independent accounts carry it") is a surge a team must hear about, not a rant.
  for (let k = 0; k < 5; k++) {
    const r = rng(300 + k);
    const name = topic();
    const signals = baseline(name, r, `r${k}`);
    const oneAccount = k % 2 === 0;
    for (let n = 0; n < 30; n++) {
      signals.push({
        minute: Math.floor((n * 20) / 30),
        source: 'x',
        author: oneAccount ? `r${k}-ranter` : `r${k}-u${n}`,
        text: text(name, 'negative', r),
        url: url('x', `r${k}-${n}`),
      });
    }
    out.push({
      name: oneAccount ? `rant ${k + 1} (one account)` : `one-platform surge ${k + 1} (30 accounts)`,
      kind: oneAccount ? 'single-source-rant' : 'crisis',
      topic: name,
      expectEvent: !oneAccount,
      signals,
    });
  }

  // Duplicated spam: the same negative text, lightly varied, from bot accounts on several platforms.
  for (let k = 0; k < 5; k++) {
    const r = rng(400 + k);
    const name = topic();
    const signals = baseline(name, r, `s${k}`);
    const template = text(name, 'negative', r);
    for (let n = 0; n < 40; n++) {
      const source = ['x', 'reddit', 'bluesky'][n % 3];
      const variant = n % 2 === 0 ? template : `${template} !!`;
      signals.push({
        minute: Math.floor(n / 2),
        source,
        author: `s${k}-bot${n}`,
        text: variant,
        url: url(source, `s${k}-${n}`),
      });
    }
    out.push({ name: `spam ${k + 1}`, kind: 'duplicated-spam', topic: name, expectEvent: false, signals });
  }
  // Steady negative chatter: complaints all day at the same rate (a busy baseline), then either a real surge on
  // top of it or just more of the same.
  for (let k = 0; k < 4; k++) {
    const r = rng(500 + k);
    const name = topic();
    const surge = k < 2;
    const signals: ScriptedSignal[] = [];
    let n = 0;
    for (let m = -24 * 60; m < 60; m += 6) {
      const source = ['reddit', 'x', 'bluesky'][n % 3];
      signals.push({
        minute: m,
        source,
        author: `g${k}-u${n}`,
        text: text(name, 'negative', r),
        url: url(source, `g${k}-${n}`),
      });
      n++;
    }
    if (surge) {
      for (let i = 0; i < 50; i++) {
        const source = ['reddit', 'x', 'news'][i % 3];
        const domain = source === 'news' ? `paper${i % 4}` : source;
        signals.push({
          minute: Math.floor(i / 2.5),
          source,
          author: `g${k}-s${i}`,
          text: text(name, 'negative', r),
          url: url(domain, `g${k}-s${i}`),
        });
      }
    }
    out.push({
      name: `steady chatter ${k + 1}${surge ? ' + surge' : ''}`,
      kind: surge ? 'crisis' : 'steady-chatter',
      topic: name,
      expectEvent: surge,
      signals,
    });
  }
  return out;
}
