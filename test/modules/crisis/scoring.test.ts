import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { contentHash, evidenceVersion, normaliseExcerpt } from '../../../src/modules/crisis/hashing.ts';
import {
  baseline,
  countIndependent,
  freshness,
  isSurge,
  severityFromScore,
  socialSeverity,
  type WindowMention,
  zScore,
} from '../../../src/modules/crisis/scoring.ts';
import { hammingDistance, NEAR_DUPLICATE_BITS, simhash } from '../../../src/modules/crisis/simhash.ts';
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
  engagement: 0,
  simhash: simhash(text),
  observed_at: id,
});

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

  it('one account counts at most twice', () => {
    const texts = posts('Acme', 10, 'negative', 5);
    const count = countIndependent(texts.map((t, i) => mention(i, 'x', t, 'ranter')));
    assert.equal(count.counted.length, 2);
    assert.deepEqual(count.origins, ['x']);
  });

  it('z-score against a baseline with a Poisson floor', () => {
    const calm = baseline([], 0, 24 * 3600_000);
    assert.equal(calm.mean, 0);
    assert.equal(zScore(5, calm), 5);
    const busy = baseline(
      Array.from({ length: 480 }, (_, i) => i * 180_000),
      0,
      24 * 3600_000,
    );
    assert.equal(busy.mean, 10);
    assert.ok(zScore(12, busy) < 3);
    const count = countIndependent(
      posts('Acme', 6, 'negative', 9).map((t, i) => mention(i, i % 2 ? 'x' : 'reddit', t)),
    );
    assert.ok(isSurge(count, zScore(6, calm)));
    assert.ok(!isSurge(count, zScore(6, busy)));
  });

  it('severity bands and basis', () => {
    assert.equal(severityFromScore(80), 'critical');
    assert.equal(severityFromScore(60), 'high');
    assert.equal(severityFromScore(40), 'medium');
    assert.equal(severityFromScore(10), 'low');
    const count = countIndependent(
      posts('Acme', 30, 'negative', 9).map((t, i) => mention(i, ['x', 'reddit', 'bluesky'][i % 3], t)),
    );
    const { severity, basis } = socialSeverity(count, 30, baseline([], 0, 3600_000));
    assert.equal(basis.independent_sources, 3);
    assert.equal(basis.surge, 1);
    assert.ok(['high', 'critical'].includes(severity));
  });

  it('freshness windows', () => {
    assert.equal(freshness(null, 1000, 5000), 'missing');
    assert.equal(freshness(4500, 1000, 5000), 'fresh');
    assert.equal(freshness(3000, 1000, 5000), 'stale');
  });
});
