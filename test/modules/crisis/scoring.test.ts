import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { contentHash, evidenceVersion, normaliseExcerpt } from '../../../src/modules/crisis/hashing.ts';
import {
  CONCERN_WEIGHTS,
  concernScore,
  concernWeight,
  countIndependent,
  floodSeverity,
  freshness,
  hazardSeverityBasis,
  independentEvidence,
  isSurge,
  type SurgeCount,
  severityFromScore,
  socialSeverity,
  socialSeverityBasis,
  usgsSeverity,
  type WindowMention,
  windowBaseline,
  zScore,
} from '../../../src/modules/crisis/scoring.ts';
import { hammingDistance, NEAR_DUPLICATE_BITS, simhash } from '../../../src/modules/text/simhash.ts';
import { posts } from './posts.ts';

const mention = (
  id: number,
  origin: string,
  text: string,
  author: string | null = `a${id}`,
): WindowMention => ({
  id,
  origin,
  source: origin,
  author,
  compound: -0.6,
  alarm: 0,
  terms: [],
  domains: [],
  engagement: 0,
  simhash: simhash(text),
  observed_at: id,
});

const MIN_MS = 60_000;

describe('crisis formulas', () => {
  it('content_hash is SHA-256 of the NFC, whitespace-collapsed, trimmed excerpt', () => {
    const decomposed = '  Cafe\u0301 \n\t closed  ';
    assert.equal(normaliseExcerpt(decomposed), 'Caf\u00e9 closed');
    assert.equal(contentHash(decomposed), createHash('sha256').update('Caf\u00e9 closed').digest('hex'));
    const hashes = ['b'.repeat(64), 'a'.repeat(64)];
    assert.equal(
      evidenceVersion(hashes),
      createHash('sha256')
        .update(`${'a'.repeat(64)}\n${'b'.repeat(64)}`)
        .digest('hex')
        .slice(0, 32),
    );
    assert.equal(evidenceVersion([]), null);
  });

  it('near-duplicate texts count once; distinct texts do not collide', () => {
    const base = 'Acme broke my order again and support is useless, worst service ever';
    assert.ok(hammingDistance(simhash(base), simhash(`${base} !!`)) <= NEAR_DUPLICATE_BITS);
    const texts = posts('Acme', 40, 'negative', 3);
    const distinct = countIndependent(texts.map((t, i) => mention(i, 'x', t)));
    assert.equal(distinct.counted.length, 40);
    const spam = countIndependent(
      Array.from({ length: 20 }, (_, i) => mention(i, ['x', 'reddit'][i % 2], base)),
    );
    assert.equal(spam.counted.length, 1);
  });

  it('concern weighs an alarming mention 1 and a merely negative one ½', () => {
    assert.equal(concernWeight({ compound: 0, alarm: 1 }), 1);
    assert.equal(concernWeight({ compound: -0.8, alarm: 1 }), 1, 'alarming and negative counts once');
    assert.equal(concernWeight({ compound: -0.8, alarm: 0.5 }), 0.5);
    assert.equal(concernWeight({ compound: -0.05, alarm: 0 }), 0.5);
    assert.equal(concernWeight({ compound: -0.04, alarm: 0.5 }), 0);
    assert.equal(
      concernScore([
        { compound: 0, alarm: 1 },
        { compound: -0.5, alarm: 0 },
        { compound: 0.4, alarm: 0 },
      ]),
      CONCERN_WEIGHTS.alarming + CONCERN_WEIGHTS.negative,
    );
  });

  it('a window of merely negative posts needs twice as many of them as alarming ones', () => {
    const calm = windowBaseline([], 48 * 3600_000, 600_000);
    const window = (alarmingPosts: number, negativePosts: number, neutral: number) => {
      const counted = [
        ...Array.from({ length: alarmingPosts }, (_, i) => ({ ...mention(i, 'x', `a ${i}`), alarm: 1 })),
        ...Array.from({ length: negativePosts }, (_, i) => mention(100 + i, 'x', `n ${i}`)),
        ...Array.from({ length: neutral }, (_, i) => ({ ...mention(200 + i, 'x', `q ${i}`), compound: 0.3 })),
      ];
      const count = { counted, raw: counted.length, origins: ['x'] };
      return isSurge(count, independentEvidence(counted), zScore(counted.length, calm), 600_000);
    };
    assert.equal(window(3, 0, 3), true);
    assert.equal(window(0, 3, 3), false, 'three grumbles are a concern score of 1.5');
    assert.equal(window(0, 6, 0), true);
    assert.equal(window(1, 4, 1), true);
    // A third of the window must be concern: 2 + 2 × ½ = 3 of 10 is not enough.
    assert.equal(window(2, 2, 6), false);
    // A concern score of 2 is enough (2.3.0; it was 3): two alarming posts among six, not one and a grumble.
    assert.equal(window(2, 0, 4), true);
    assert.equal(window(1, 1, 4), false);
  });

  it('five posts in 30 minutes open when several platforms carry them, not on one platform (E ≥ 6)', () => {
    const calm = windowBaseline([], 48 * 3600_000, 30 * MIN_MS);
    const window = (platforms: readonly string[]) => {
      const counted = Array.from({ length: 5 }, (_, i) => ({
        ...mention(i, platforms[i % platforms.length], `report ${i}`),
        alarm: i < 2 ? 1 : 0,
        compound: i < 2 ? 0 : 0.2,
      }));
      const count = { counted, raw: counted.length, origins: [...new Set(platforms)] };
      return isSurge(count, independentEvidence(counted), zScore(counted.length, calm), 30 * MIN_MS);
    };
    assert.equal(window(['x', 'bluesky', 'reddit']), true, 'E = 5 accounts + 2 × 2 platforms = 9');
    assert.equal(window(['x']), false, 'E = 5 accounts');
  });

  it('one account counts at most twice', () => {
    const texts = posts('Acme', 10, 'negative', 5);
    const count = countIndependent(texts.map((t, i) => mention(i, 'x', t, 'ranter')));
    assert.equal(count.counted.length, 2);
    assert.deepEqual(count.origins, ['x']);
  });

  it('z-score against a baseline with a Poisson floor', () => {
    const MIN = 60_000;
    const now = 48 * 3600_000;
    const calm = windowBaseline([], now, 30 * MIN);
    assert.equal(calm.mean, 0);
    assert.equal(zScore(5, calm), 5);
    // 480 mentions over the 24 hours before the window: 10 per 30 minutes.
    const start = now - 30 * MIN - 24 * 3600_000;
    const busy = windowBaseline(
      Array.from({ length: 480 }, (_, i) => ({ minute: (start + i * 180_000) / MIN, n: 1 })),
      now,
      30 * MIN,
    );
    assert.equal(busy.mean, 10);
    assert.ok(zScore(12, busy) < 3);
    const count = countIndependent(
      posts('Acme', 6, 'negative', 9).map((t, i) => mention(i, i % 2 ? 'x' : 'reddit', t)),
    );
    const evidence = independentEvidence(count.counted);
    assert.ok(isSurge(count, evidence, zScore(6, calm), 30 * MIN));
    assert.ok(!isSurge(count, evidence, zScore(6, busy), 30 * MIN));
  });

  it('severity bands and basis', () => {
    assert.equal(severityFromScore(80), 'critical');
    assert.equal(severityFromScore(60), 'high');
    assert.equal(severityFromScore(40), 'medium');
    assert.equal(severityFromScore(10), 'low');
    const count = countIndependent(
      posts('Acme', 30, 'negative', 9).map((t, i) => mention(i, ['x', 'reddit', 'bluesky'][i % 3], t)),
    );
    const calm = windowBaseline([], 3600_000, 600_000);
    const { severity, basis } = socialSeverity(count, independentEvidence(count.counted), 30, calm, 600_000);
    assert.equal(basis.independent_sources, 3);
    assert.equal(basis.surge, 1);
    assert.ok(['high', 'critical'].includes(severity));
  });

  it('severity_basis states the weights and bands the score is computed with', () => {
    // Inputs whose parts are exact at two decimals, so the sentence's numbers reproduce the score.
    const surge = (n: number, compound: number, engagement: number, origins: number): SurgeCount => ({
      counted: Array.from({ length: n }, (_, i) => ({
        ...mention(i, `o${i % origins}`, `text ${i}`),
        compound,
        engagement: i === 0 ? engagement : 0,
      })),
      raw: n,
      origins: Array.from({ length: origins }, (_, i) => `o${i}`),
    });
    const calm = windowBaseline([], 3600_000, 600_000);
    // Evidence: one account per mention plus 2 per platform beyond the first.
    for (const [count, z] of [
      [surge(8, -0.6, 91, 4), 5], // surge 0.5, negativity 0.6, reach 0.5, corroboration 14/20
      [surge(9, -0.2, 9990, 1), 10], // surge 1, negativity 0.2, reach 1, corroboration 9/20
      [surge(9, -0.9, 0, 4), 2], // surge 0.2, negativity 0.9, reach 0.25, corroboration 15/20
      [surge(5, -0.8, 94, 1), 0], // surge 0, negativity 0.8, reach 0.5, corroboration 5/20
    ] as const) {
      const { severity, basis } = socialSeverity(count, independentEvidence(count.counted), z, calm, 600_000);
      const text = socialSeverityBasis(basis);
      const formula = /^score ([\d.]+) = 100 × \((.+?)\);/.exec(text);
      assert.ok(formula, text);
      const terms = [...formula[2].matchAll(/([\d.]+) × (\w+) ([\d.]+)/g)];
      assert.deepEqual(
        terms.map((t) => t[2]),
        ['surge', 'negativity', 'reach', 'corroboration'],
        text,
      );
      const stated = 100 * terms.reduce((sum, t) => sum + Number(t[1]) * Number(t[3]), 0);
      assert.ok(Math.abs(stated - basis.score) < 0.051, `${text} (score from the sentence: ${stated})`);
      assert.equal(Number(formula[1]), basis.score);
      assert.equal(severityFromScore(stated), severity, text);
      // Each stated band is where the computed severity changes.
      const bands = [...(/Bands: (.+), else low/.exec(text)?.[1] ?? '').matchAll(/(\w+) ≥ ([\d.]+)/g)];
      assert.deepEqual(
        bands.map((b) => b[1]),
        ['critical', 'high', 'medium'],
        text,
      );
      for (const [, name, min] of bands) {
        assert.equal(severityFromScore(Number(min)), name, text);
        assert.notEqual(severityFromScore(Number(min) - 0.01), name, text);
      }
    }
    assert.match(
      socialSeverityBasis(
        socialSeverity(
          surge(8, -0.6, 91, 4),
          independentEvidence(surge(8, -0.6, 91, 4).counted),
          5,
          calm,
          600_000,
        ).basis,
        'critical',
      ),
      /peak \(critical\)\.$/,
    );
  });

  it('hazard severity_basis states the mapping the severity is computed with', () => {
    const usgs = hazardSeverityBasis('usgs', 'M 5.4 (ml), PAGER alert yellow');
    assert.match(usgs, /^Provider severity M 5\.4 \(ml\), PAGER alert yellow\. Mapping: /);
    const alerts = [...(/PAGER alert (.+?);/.exec(usgs)?.[1] ?? '').matchAll(/(\w+) → (\w+)/g)];
    assert.equal(alerts.length, 4, usgs);
    for (const [, alert, severity] of alerts) assert.equal(usgsSeverity(5, alert), severity, usgs);
    const green = /green → \w+ \((\w+) from M ([\d.]+)\)/.exec(usgs);
    assert.ok(green, usgs);
    assert.equal(usgsSeverity(Number(green[2]), 'green'), green[1]);
    assert.notEqual(usgsSeverity(Number(green[2]) - 0.01, 'green'), green[1]);
    const bands = [
      ...(/without an alert (.+), else low/.exec(usgs)?.[1] ?? '').matchAll(/≥ ([\d.]+) (\w+)/g),
    ];
    assert.deepEqual(
      bands.map((b) => b[2]),
      ['critical', 'high', 'medium'],
      usgs,
    );
    for (const [, min, severity] of bands) {
      assert.equal(usgsSeverity(Number(min), null), severity, usgs);
      assert.notEqual(usgsSeverity(Number(min) - 0.01, null), severity, usgs);
    }
    assert.equal(usgsSeverity(1, null), 'low');
    assert.equal(usgsSeverity(null, null), 'low');
    const ea = hazardSeverityBasis('environment_agency', 'Flood warning (severity level 2)');
    const levels = [...ea.matchAll(/(\d) \([^)]*\) → (\w+)/g)];
    assert.equal(levels.length, 4, ea);
    for (const [, level, severity] of levels) assert.equal(floodSeverity(Number(level)), severity, ea);
    assert.equal(floodSeverity(null), 'low');
  });

  it('freshness windows', () => {
    assert.equal(freshness(null, 1000, 5000), 'missing');
    assert.equal(freshness(4500, 1000, 5000), 'fresh');
    assert.equal(freshness(3000, 1000, 5000), 'stale');
  });
});
