import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { alarm } from '../../../src/modules/crisis/alarm.ts';
import { isOfficialDomain, linkedDomains, originOf } from '../../../src/modules/crisis/origins.ts';
import {
  CONCERN_WEIGHTS,
  concernScore,
  countIndependent,
  EVIDENCE_WEIGHTS,
  independentEvidence,
  isSurge,
  type MinuteCount,
  socialCorroboration,
  socialSeverity,
  socialSeverityBasis,
  socialSummary,
  type WindowMention,
  windowBaseline,
  zScore,
} from '../../../src/modules/crisis/scoring.ts';
import { foldAccents, matchesNear } from '../../../src/modules/crisis/surges.ts';
import { compound, normaliseTokens } from '../../../src/modules/text/index.ts';
import { hammingDistance, NEAR_DUPLICATE_BITS, simhash } from '../../../src/modules/text/simhash.ts';
import { posts } from './posts.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const TEN = 10 * MIN;

function mention(
  id: number,
  text: string,
  options: { source?: string; author?: string | null; url?: string | null; at?: number } = {},
): WindowMention {
  const { source = 'x', author = `a${id}`, url = null, at = id * 1000 } = options;
  const a = alarm(text);
  return {
    id,
    origin: originOf(source, url),
    source,
    author,
    compound: compound(text),
    alarm: a.score,
    terms: a.terms,
    domains: linkedDomains(text),
    engagement: 0,
    simhash: simhash(text),
    observed_at: at,
  };
}

/** Would these mentions, all within the last 10 minutes of a silent day, open a surge? */
function opens(mentions: WindowMention[]) {
  const count = countIndependent(mentions);
  const evidence = independentEvidence(count.counted);
  const base = windowBaseline([], 2 * DAY, TEN);
  const z = zScore(count.counted.length, base);
  return { open: isSurge(count, evidence, z, TEN), count, evidence, z, base };
}

const crisisReports = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `Acme plant ${['explosion', 'fire and smoke', 'evacuation', 'collapse, people trapped'][i % 4]} reported ` +
      `near gate ${i}, ${['residents told to take shelter', 'roads closed', 'ambulances arriving', 'injured workers'][Math.floor(i / 4) % 4]} (${i})`,
  );

describe('independent evidence', () => {
  it('a single account posting 100 times never opens', () => {
    const texts = [...posts('Acme', 50, 'negative', 11), ...crisisReports(50)];
    const result = opens(texts.map((t, i) => mention(i, t, { author: 'ranter' })));
    assert.equal(result.count.counted.length, 2, 'one account counts at most twice');
    assert.equal(result.evidence.parts.accounts.count, 1);
    assert.equal(result.evidence.total, EVIDENCE_WEIGHTS.accounts);
    assert.equal(result.open, false);
  });

  it('a copy-paste storm from many accounts on several platforms never opens', () => {
    const text = 'Acme explosion at the plant, evacuate now! Share before they delete it';
    const storm = Array.from({ length: 120 }, (_, i) =>
      mention(i, i % 2 ? text : `${text} !!`, {
        source: ['x', 'reddit', 'bluesky'][i % 3],
        author: `bot${i}`,
      }),
    );
    const result = opens(storm);
    assert.equal(result.count.counted.length, 1, 'near-duplicates fold into one');
    assert.equal(result.evidence.total, EVIDENCE_WEIGHTS.accounts);
    assert.equal(result.open, false);
  });

  it('30 accounts on one platform open a surge, carried by accounts', () => {
    const result = opens(crisisReports(30).map((t, i) => mention(i, t)));
    assert.equal(result.count.counted.length, 30);
    assert.deepEqual(result.evidence.parts.platforms, { count: 1, weight: 2, points: 0, names: ['x'] });
    assert.equal(result.evidence.total, 30);
    assert.deepEqual(result.evidence.carried_by, ['accounts']);
    assert.equal(result.open, true);
    const { basis } = socialSeverity(result.count, result.evidence, result.z, result.base, TEN);
    const corroboration = socialCorroboration(basis, result.count.origins, {});
    assert.deepEqual(corroboration.evidence.carried_by, ['accounts']);
    assert.equal(corroboration.evidence.accounts.count, 30);
    assert.match(
      socialSeverityBasis(basis),
      /independent evidence 30 = 30 accounts × 1 \+ 0 linked domains × 2/,
    );
    assert.match(socialSeverityBasis(basis), /carried by accounts\./);
  });

  it('five accounts on one platform are not enough; the same five over three platforms are', () => {
    const texts = crisisReports(5);
    assert.equal(opens(texts.map((t, i) => mention(i, t))).open, false);
    // A sixth independent account on the same platform is enough.
    assert.equal(opens(crisisReports(6).map((t, i) => mention(i, t))).open, true);
    const spread = opens(texts.map((t, i) => mention(i, t, { source: ['x', 'reddit', 'bluesky'][i % 3] })));
    assert.equal(spread.evidence.total, 5 + 2 * EVIDENCE_WEIGHTS.platforms);
    assert.deepEqual(spread.evidence.carried_by, ['accounts', 'platforms']);
    assert.equal(spread.open, true);
  });

  it('linked web domains and official sources count with their weights', () => {
    const texts = crisisReports(4).map(
      (t, i) => `${t} https://${['news.example.com', 'www.weather.gov', 't.co', 'x.com'][i]}/story/${i}`,
    );
    const items = [
      ...texts.map((t, i) => mention(i, t)),
      mention(9, 'Acme refinery fire: residents evacuated', {
        source: 'news',
        url: 'https://paper.example.org/a',
      }),
      mention(10, 'M 5.9 earthquake near Acme', { source: 'usgs', author: null }),
    ];
    const e = independentEvidence(countIndependent(items).counted);
    assert.deepEqual(e.parts.domains.names, ['news.example.com', 'paper.example.org']);
    assert.deepEqual(e.parts.official.names, ['usgs', 'weather.gov']);
    assert.deepEqual(e.parts.platforms.names, ['x']);
    assert.equal(
      e.total,
      6 * EVIDENCE_WEIGHTS.accounts + 2 * EVIDENCE_WEIGHTS.domains + 2 * EVIDENCE_WEIGHTS.official,
    );
    assert.equal(isOfficialDomain('metoffice.gov.uk'), true);
    assert.equal(isOfficialDomain('proteccioncivil.gob.mx'), true);
    assert.equal(isOfficialDomain('government-news.com'), false);
    assert.deepEqual(
      linkedDomains('see http://bit.ly/x and https://twitter.com/a and https://www.bbc.co.uk/n'),
      ['bbc.co.uk'],
    );
  });

  // Ten accounts react to something felt around a watched name: one post uses a crisis word, four grumble
  // (negative in VADER), five just talk about it.
  const grumbles = [
    'Acme tower says the building is in emergency mode, checking floors now',
    'ugh, that Acme rumble woke me up, not cool at all',
    'damn Acme rumble again, so annoying at 3am',
    'Acme rumble again, I hate being woken up like this',
    'seriously Acme, stop rattling my windows, so annoying',
    'did anyone else feel that in Acme just now?',
    'Acme is trending already, the internet is fast',
    'my coffee moved on the table in Acme, I guess that was it',
    'felt it in the kitchen in Acme, all fine here',
    'Acme rumble number three this year, we are used to it',
  ];

  it('a burst of grumbles with one crisis word is not a crisis: a merely negative post counts half', () => {
    const result = opens(grumbles.map((t, i) => mention(i, t)));
    const counted = result.count.counted;
    assert.equal(counted.length, 10);
    assert.equal(counted.filter((m) => m.alarm >= 1).length, 1);
    assert.equal(counted.filter((m) => m.alarm < 1 && m.compound <= -0.05).length, 4);
    // Five of ten are negative or alarming (more than a third), but their concern score is 1 + 4 × ½ = 3.
    assert.equal(concernScore(counted), CONCERN_WEIGHTS.alarming + 4 * CONCERN_WEIGHTS.negative);
    assert.ok(concernScore(counted) < counted.length / 3);
    assert.ok(result.evidence.total >= 6 && result.z >= 3, 'only the concern is missing');
    assert.equal(result.open, false);
  });

  it('the same burst opens when the posts report harm and emergency, not only annoyance', () => {
    const reports = [
      'Acme tower: windows shattered and people injured, ambulances on the way',
      'Acme mall ceiling collapsed, people trapped, rescue teams called',
      'Acme tower evacuated, residents told to take shelter outside',
      'Acme: two dead after the old bridge collapsed',
    ];
    const texts = [...grumbles.slice(0, 6), ...reports];
    const result = opens(texts.map((t, i) => mention(i, t)));
    assert.equal(result.count.counted.filter((m) => m.alarm >= 1).length, 5);
    assert.equal(result.open, true);
  });

  it('a launch (positive, a few grumbles) is not a crisis however loud', () => {
    const texts = [...posts('Acme', 27, 'positive', 4), ...posts('Acme', 2, 'negative', 5)];
    const result = opens(texts.map((t, i) => mention(i, t, { source: ['x', 'reddit', 'bluesky'][i % 3] })));
    assert.ok(result.z > 10);
    assert.equal(result.open, false);
  });

  it('near-duplicate folding by bands equals comparing every pair', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 7 }),
            fc.array(fc.integer({ min: 0, max: 63 }), { maxLength: 9 }),
          ),
          {
            maxLength: 60,
          },
        ),
        (spec) => {
          const roots = Array.from({ length: 8 }, (_, i) => simhash(`root text number ${i} about acme`));
          const mentions = spec.map(([root, flips], i) => {
            let h = roots[root];
            for (const bit of flips) h ^= 1n << BigInt(bit);
            return { ...mention(i, 'x'), author: null, simhash: h };
          });
          const naive: WindowMention[] = [];
          for (const m of mentions) {
            if (!naive.some((r) => hammingDistance(r.simhash, m.simhash) <= NEAR_DUPLICATE_BITS))
              naive.push(m);
          }
          assert.deepEqual(
            countIndependent(mentions).counted.map((m) => m.id),
            naive.map((m) => m.id),
          );
        },
      ),
    );
  });
});

describe('baseline that knows the hour of day', () => {
  /** 40 mentions in the 09:00 hour and 4 in every other hour, for `days` days before `dayStart`. */
  function rhythm(dayStart: number, days: number): MinuteCount[] {
    const out: MinuteCount[] = [];
    for (let d = days; d >= 1; d--) {
      for (let h = 0; h < 24; h++) {
        const hourStart = dayStart - d * DAY + h * HOUR;
        const n = h === 9 ? 40 : 4;
        for (let i = 0; i < n; i++)
          out.push({ minute: (hourStart + Math.floor((i * HOUR) / n)) / MIN, n: 1 });
      }
    }
    return out;
  }

  it('a daily 09:00 peak is expected at 09:00, not a surge', () => {
    const day15 = Date.parse('2026-11-15T00:00:00Z');
    const history = rhythm(day15, 14);
    const now = day15 + 9 * HOUR + 30 * MIN;
    // Today's 09:00 hour so far, at the usual pace.
    const today = Array.from({ length: 20 }, (_, i) => ({
      minute: (day15 + 9 * HOUR + i * 90_000) / MIN,
      n: 1,
    }));
    for (const windowMs of [TEN, 30 * MIN, 60 * MIN]) {
      const base = windowBaseline([...history, ...today], now, windowMs);
      assert.equal(base.days, 7);
      const expected = (40 * windowMs) / HOUR;
      assert.ok(Math.abs(base.hour_mean - expected) < 1e-9, `${base.hour_mean} vs ${expected}`);
      assert.ok(base.hour_mean > base.recent_mean);
      assert.ok(zScore(expected, base) < 1, `usual pace: z ${zScore(expected, base)}`);
      // Without the hour of day, the same count would look like a surge.
      assert.ok(zScore(expected, { mean: base.recent_mean, std: base.std }) >= 3);
      // A real breakout on top of the usual peak still stands out.
      assert.ok(zScore(expected * 4 + 10, base) >= 3);
    }
  });

  it('a new topic has no hour-of-day baseline', () => {
    const now = Date.parse('2026-11-15T09:30:00Z');
    const base = windowBaseline([{ minute: (now - 2 * HOUR) / MIN, n: 3 }], now, 30 * MIN);
    assert.equal(base.days, 0);
    assert.equal(base.hour_mean, 0);
    assert.equal(base.recent_mean, 3 / 48);
  });
});

describe('interest matching', () => {
  const m = (text: string, key: string) => matchesNear(normaliseTokens(text), key.split(' '));
  // A long text: the two words stand in different paragraphs, 80+ words apart.
  const article = (first: string, last: string) =>
    `${first} ${'the committee met on Tuesday to discuss the budget and the new schedule for the year. '.repeat(6)}${last}`;

  it('all the words of an interest, in any order', () => {
    assert.ok(m('Train crash in Spain, dozens dead', 'spain train'));
    assert.ok(m('Metro-North train derailment in the Bronx', 'metro north derailment'));
    assert.ok(m('acme is down again', 'acme'));
    assert.ok(!m('Spain won the match tonight', 'spain train'));
    assert.ok(!m('acmeish', 'acme'));
  });

  it('anywhere in a post, as keyword tracking on social platforms matches them', () => {
    // Eight and nine words apart: a post about floods in Manila.
    assert.ok(m('If floods end up banging up my Manila badly, I will run a charity drive', 'manila flood'));
    assert.ok(
      m(
        'RED warning for Metro Manila. Heavy rains in the next 3 hours. Flood in low-lying areas',
        'manila flood',
      ),
    );
    assert.ok(m('7.2 earthquake, 2km S of Nueva Vida Sur, Philippines, at 08:12', 'philippines earthquake'));
  });

  it('close together in a longer text (an article): words far apart are not a match', () => {
    assert.ok(normaliseTokens(article('Spain', 'train')).length > 80);
    assert.ok(!m(article('Spain won the match.', 'Later I took the night train home.'), 'spain train'));
    assert.ok(m(article('A train crash in Spain left dozens dead.', 'More soon.'), 'spain train'));
    assert.ok(m(article('Officials spoke.', 'A train derailed in Spain today.'), 'spain train'));
  });

  it('without accents, and a hashtag however it is cased', () => {
    const m = (text: string, key: string) =>
      matchesNear(normaliseTokens(text).map(foldAccents), key.split(' ').map(foldAccents));
    assert.ok(m('Train derailment in Lac Megantic', 'lac mégantic'));
    assert.ok(m('Explosion à Lac-Mégantic', 'lac megantic'));
    // "#SGHaze" is the words "sg haze"; "#sghaze" and "#SGHAZE" are one token.
    assert.ok(m('PSI at 371 #sghaze', 'sg haze'));
    assert.ok(m('PSI at 371 #SGHAZE', 'sg haze'));
    // "#rescueph" is one word; "#RescuePh" splits into "rescue ph".
    assert.ok(m('Need boats in Marikina #RescuePh', 'rescueph'));
    assert.ok(!m('rescue teams in the philippines', 'rescueph'));
    assert.ok(!m('sg and haze far apart: sg is here today and the haze is not', 'sghaze'));
  });
});

describe('event text', () => {
  it('summary and corroboration name the crisis words and how many posts used them', () => {
    const result = opens(crisisReports(12).map((t, i) => mention(i, t)));
    const { basis } = socialSeverity(result.count, result.evidence, result.z, result.base, TEN);
    const terms = { explosion: 3, 'evacu*': 3 };
    const summary = socialSummary('Acme', basis, terms);
    assert.match(summary, /^12 mentions of "Acme" in the last 10 minutes, \d+ of them negative or alarming/);
    assert.match(summary, /explosion ×3, evacu\* ×3/);
    assert.match(summary, /from 12 accounts on 1 platforms \(x\)/);
    const corroboration = socialCorroboration(basis, result.count.origins, terms);
    assert.deepEqual(corroboration.concern.alarm_terms, terms);
    assert.equal(corroboration.window_minutes, 10);
    assert.equal(corroboration.evidence.needed, 6);
  });
});
