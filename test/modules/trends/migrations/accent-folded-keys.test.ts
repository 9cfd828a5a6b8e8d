import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Database } from '../../../../src/database.ts';
import { migrateAppTo, migrateAppToLatest } from '../../../../src/migrations.ts';
import { normaliseKey } from '../../../../src/modules/text/keys.ts';
import { openDatabase } from '../../../../src/platform/db/index.ts';
import { createTestDatabase } from '../../../helpers/db.ts';

const AT = Date.parse('2026-01-02T03:04:05Z');
const HOUR = Math.floor(AT / 3_600_000);
const MINUTE = Math.floor(AT / 60_000);

test('trend keys fold Latin accents and keep other scripts', () => {
  assert.equal(normaliseKey('Pokémon'), 'pokemon');
  assert.equal(normaliseKey('POKÉMON'), 'pokemon');
  assert.equal(normaliseKey('Lac-Mégantic'), normaliseKey('Lac Megantic'));
  assert.equal(normaliseKey('São Paulo'), 'sao paulo');
  assert.equal(normaliseKey('#Zürich'), 'zurich');
  // Marks that are part of a letter in other scripts stay; letters that are not base + accent stay.
  assert.equal(normaliseKey('йогурт'), 'йогурт');
  assert.equal(normaliseKey('हिन्दी'), 'हिन्दी');
  assert.equal(normaliseKey('Ørsted'), 'ørsted');
  // English plural rules stay off for accented words, as before (the stored keys were folded to match).
  assert.equal(normaliseKey('Pokémons'), 'pokemons');
  assert.equal(normaliseKey('pokemons'), 'pokemon');
});

test('migration 0023 folds stored keys: renames a lone trend, merges a duplicate into its folded twin', async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const handle = openDatabase<Database>(database.config);
  try {
    await migrateAppTo(handle, '0022_left_organisation');
    const db = handle.db;

    const user = (email: string) => ({
      email,
      full_name: null,
      is_active: 1,
      organization_role: 'owner',
      plan: 'developer',
      subscription_status: 'active',
      current_period_end: null,
      cancel_at_period_end: 0,
      created_at: AT,
      updated_at: AT,
    });
    const [ada, bob] = await db
      .insertInto('users')
      .values([user('ada@example.com'), user('bob@example.com')])
      .returning('id')
      .execute();
    const trend = (key: string, title: string, mentions: number, first: number, last: number) => ({
      key,
      title,
      type: 'entity',
      category: 'Gaming',
      first_seen_at: first,
      last_seen_at: last,
      mentions,
    });
    const [plain, accented, town, moscow, plural] = await db
      .insertInto('trends')
      .values([
        trend('pokemon', 'Pokemon', 10, AT - 1000, AT),
        trend('pokémon', 'Pokémon', 5, AT - 5000, AT + 1000),
        trend('lac mégantic', 'Lac-Mégantic', 3, AT, AT),
        trend('москва', 'Москва', 2, AT, AT),
        trend('pokémons', 'Pokémons', 1, AT, AT),
      ])
      .returning('id')
      .execute();
    const id = (row: { id: number } | undefined) => Number(row!.id);
    await db
      .insertInto('trend_surfaces')
      .values([
        { trend_id: id(plain), surface: 'Pokemon', count: 10 },
        { trend_id: id(accented), surface: 'Pokémon', count: 4 },
        { trend_id: id(accented), surface: 'Pokemon', count: 1 },
      ])
      .execute();
    const bucket = (trendId: number, platform: string, hour: number, mentions: number) => ({
      trend_id: trendId,
      platform,
      hour,
      mentions,
      sentiment_sum: mentions * 0.1,
      positive: 1,
      negative: 0,
      evidence: mentions,
    });
    await db
      .insertInto('trend_hourly')
      .values([
        bucket(id(plain), 'x', HOUR, 4),
        bucket(id(accented), 'x', HOUR, 2),
        bucket(id(accented), 'bluesky', HOUR - 1, 3),
      ])
      .execute();
    await db
      .insertInto('trend_minutely')
      .values([
        { trend_id: id(plain), minute: MINUTE, mentions: 1, evidence: 1 },
        { trend_id: id(accented), minute: MINUTE, mentions: 2, evidence: 2 },
        { trend_id: id(accented), minute: MINUTE - 1, mentions: 1, evidence: 1 },
      ])
      .execute();
    const insight = (userId: number, trendId: number, generatedAt: number) => ({
      user_id: userId,
      trend_id: trendId,
      content: '{}',
      trend_name: 'Pokémon',
      sentiment_category: 'neutral',
      topic_category: 'Gaming',
      themes_text: '\n',
      audience_text: '\n',
      llm_model_used: 'rules',
      is_latest: 1,
      generated_at: generatedAt,
    });
    await db
      .insertInto('ai_insights')
      .values([insight(id(ada), id(plain), AT), insight(id(ada), id(accented), AT + 60_000)])
      .execute();
    const interest = (userId: number, keyword: string, key: string) => ({
      user_id: userId,
      keyword,
      key,
      alert_condition_type: 'any_change',
      volume_threshold_value: null,
      percentage_growth_value: null,
      status: 'active',
      created_at: AT,
    });
    await db
      .insertInto('topic_interests')
      .values([
        interest(id(ada), 'Pokémon', 'pokémon'),
        interest(id(ada), 'pokemon', 'pokemon'),
        interest(id(bob), 'Lac-Mégantic', 'lac mégantic'),
      ])
      .execute();
    const mention = (key: string, signalId: number) => ({
      key,
      signal_id: signalId,
      source: 'x',
      origin: 'x',
      author: `a${signalId}`,
      external_id: `e${signalId}`,
      url: null,
      excerpt: 'Pokémon servers down',
      compound: -0.5,
      engagement: 0,
      simhash: '0000000000000000',
      observed_at: AT,
    });
    await db
      .insertInto('crisis_mentions')
      .values([mention('pokémon', 1), mention('pokémon', 2), mention('pokemon', 2)])
      .execute();
    await db
      .insertInto('crisis_events')
      .values({
        user_id: id(ada),
        kind: 'social',
        watch_key: 'pokémon',
        title: 'Pokémon',
        summary: '',
        severity: 'medium',
        severity_rank: 2,
        status: 'active',
        review_status: 'unreviewed',
        source_state: 'surging',
        impacted_entity: null,
        source_keywords: '[]',
        trend_id: id(accented),
        trend_snapshot_link: null,
        detection_method: 'negative-surge-z',
        method_version: '2.4.0',
        model_version: null,
        provider_severity: null,
        location: null,
        severity_basis: null,
        corroboration: null,
        evidence_completeness: null,
        limitations: '[]',
        analysis_status: null,
        evidence_version: null,
        evidence_as_of: null,
        freshness_window_ms: 3_600_000,
        event_seq: 1,
        detected_at: AT,
        created_at: AT,
        updated_at: AT,
      })
      .execute();

    assert.ok((await migrateAppToLatest(handle)).includes('0023.1_fold_trend_keys'));

    const trends = await db.selectFrom('trends').selectAll().orderBy('id').execute();
    assert.deepEqual(
      trends.map((r) => [
        Number(r.id),
        r.key,
        Number(r.mentions),
        Number(r.first_seen_at),
        Number(r.last_seen_at),
      ]),
      [
        [id(plain), 'pokemon', 15, AT - 5000, AT + 1000],
        [id(town), 'lac megantic', 3, AT, AT],
        [id(moscow), 'москва', 2, AT, AT],
        [id(plural), 'pokemons', 1, AT, AT],
      ],
    );
    const outOfDate = await db.selectFrom('trend_dirty').select('trend_id').execute();
    assert.ok(
      outOfDate.some((r) => r.trend_id === id(plain)),
      'the merged trend is recomputed',
    );
    const surfaces = await db
      .selectFrom('trend_surfaces')
      .select(['surface', 'count'])
      .where('trend_id', '=', id(plain))
      .orderBy('surface')
      .execute();
    assert.deepEqual(
      surfaces.map((r) => [r.surface, Number(r.count)]),
      [
        ['Pokemon', 11],
        ['Pokémon', 4],
      ],
    );
    const hourly = await db
      .selectFrom('trend_hourly')
      .select(['trend_id', 'platform', 'hour', 'mentions', 'evidence', 'positive'])
      .orderBy('platform')
      .execute();
    assert.deepEqual(
      hourly.map((r) => [
        Number(r.trend_id),
        r.platform,
        Number(r.hour),
        Number(r.mentions),
        Number(r.evidence),
        Number(r.positive),
      ]),
      [
        [id(plain), 'bluesky', HOUR - 1, 3, 3, 1],
        [id(plain), 'x', HOUR, 6, 6, 2],
      ],
    );
    const minutes = await db
      .selectFrom('trend_minutely')
      .select(['trend_id', 'minute', 'mentions'])
      .orderBy('minute')
      .execute();
    assert.deepEqual(
      minutes.map((r) => [Number(r.trend_id), Number(r.minute), Number(r.mentions)]),
      [
        [id(plain), MINUTE - 1, 1],
        [id(plain), MINUTE, 3],
      ],
    );
    const insights = await db
      .selectFrom('ai_insights')
      .select(['trend_id', 'is_latest', 'generated_at'])
      .orderBy('generated_at')
      .execute();
    assert.deepEqual(
      insights.map((r) => [Number(r.trend_id), Number(r.is_latest)]),
      [
        [id(plain), 0],
        [id(plain), 1],
      ],
      "the user's newest insight of the merged trend is the latest",
    );
    const interests = await db
      .selectFrom('topic_interests')
      .select(['user_id', 'keyword', 'key'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      interests.map((r) => [Number(r.user_id), r.keyword, r.key]),
      [
        [id(ada), 'pokemon', 'pokemon'],
        [id(bob), 'Lac-Mégantic', 'lac megantic'],
      ],
    );
    const mentions = await db
      .selectFrom('crisis_mentions')
      .select(['key', 'signal_id'])
      .orderBy('signal_id')
      .execute();
    assert.deepEqual(
      mentions.map((r) => [r.key, Number(r.signal_id)]),
      [
        ['pokemon', 1],
        ['pokemon', 2],
      ],
    );
    const event = await db
      .selectFrom('crisis_events')
      .select(['watch_key', 'trend_id'])
      .executeTakeFirstOrThrow();
    assert.deepEqual([event.watch_key, Number(event.trend_id)], ['pokemon', id(plain)]);
    // Every stored key is now the key the code computes for the trend's spelling.
    for (const row of trends) assert.equal(normaliseKey(row.title), row.key, row.title);
  } finally {
    await handle.close();
  }
});
