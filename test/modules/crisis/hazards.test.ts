import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hazardMatches, parseLocationQuery } from '../../../src/modules/crisis/hazards.ts';
import type { PollingSource } from '../../../src/modules/signals/sources/types.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { platformTables } from '../../../src/platform/db/index.ts';
import { LeaseStore, Singletons } from '../../../src/platform/leases.ts';
import { assertProblem, buildTestApp, call, createUser, type TestContext } from '../../helpers/app.ts';
import { type StandIn, send, standIn } from '../signals/sources/stand-in.ts';
import { floodsBody, usgsFeed } from './feeds.ts';

describe('hazard events from the USGS and Environment Agency feeds', () => {
  let ctx: TestContext;
  let server: StandIn;
  const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
  let quakes = '';
  let floods = '';
  let near: { userId: number; key: string };
  let far: { userId: number; key: string };
  let york: { userId: number; key: string };

  const poll = async (id: string) => {
    const source = ctx.app.services.sources.sources.find((s) => s.id === id) as PollingSource;
    assert.ok(await ctx.app.services.sources.pollOnce(source));
    await ctx.app.services.engine.tick();
  };
  const events = async (key: string, query = '') =>
    (await call(ctx.app, 'GET', `/api/intelligence/crisis-events${query}`, { key })).data.events;

  before(async () => {
    server = await standIn((req, res) => {
      if (req.url === '/quakes.geojson')
        return send(res, 200, quakes, { 'content-type': 'application/geo+json' });
      if (req.url === '/fm/id/floods') return send(res, 200, floods, { 'content-type': 'application/json' });
      send(res, 404, '');
    });
    ctx = await buildTestApp({
      clock,
      env: {
        SOURCES: 'usgs,environment_agency',
        USGS_FEED_URL: `${server.url}/quakes.geojson`,
        ENVIRONMENT_AGENCY_BASE_URL: `${server.url}/fm`,
      },
    });
    near = await createUser(ctx, 'enterprise');
    far = await createUser(ctx, 'enterprise');
    york = await createUser(ctx, 'enterprise');
    for (const [user, location_query] of [
      [near, '35.6,-117.6,100'],
      [far, '51.5,-0.12,50'],
      [york, 'Tadcaster'],
    ] as const) {
      const res = await call(ctx.app, 'PUT', '/api/intelligence/resilience-settings', {
        key: user.key,
        body: { location_query },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.data.location_query, location_query);
    }
  });
  after(async () => {
    await ctx.close();
    await server.close();
  });

  it('a quake near the user becomes an event with the feed’s magnitude, alert, attribution and licence; far away → none', async () => {
    quakes = usgsFeed([
      {
        id: 'ci40000001',
        mag: 5.4,
        place: '12 km NE of Ridgecrest, CA',
        lon: -117.55,
        lat: 35.7,
        alert: 'yellow',
        time: clock.now() - 600_000,
      },
    ]);
    await poll('usgs');
    const [event] = await events(near.key);
    assert.ok(event, 'no event for the nearby user');
    assert.equal(event.provider_severity, 'M 5.4 (ml), PAGER alert yellow');
    assert.equal(event.severity, 'medium');
    assert.equal(event.source_state, 'automatic');
    assert.equal(event.detection_method, 'official-hazard-feed');
    assert.match(event.location, /Ridgecrest/);
    assert.equal(event.freshness, 'fresh');
    const evidence = (
      await call(ctx.app, 'GET', `/api/intelligence/crisis-events/${event.id}/evidence`, { key: near.key })
    ).data;
    assert.equal(evidence.source_refs.length, 1);
    const ref = evidence.source_refs[0];
    assert.equal(ref.source_id, 'usgs');
    assert.equal(ref.reference_id, 'ci40000001');
    assert.match(ref.attribution, /U\.S\. Geological Survey/);
    assert.match(ref.licence_url, /^https:\/\/www\.usgs\.gov\//);
    assert.equal((await events(near.key, '?source=usgs')).length, 1);
    assert.equal((await events(near.key, '?source=social')).length, 0);
    assert.equal((await events(near.key, '?location=ridgecrest')).length, 1);
    assert.equal((await events(far.key)).length, 0);
    assert.equal((await events(york.key)).length, 0);
  });

  it('a revised record escalates the same event and adds evidence', async () => {
    quakes = usgsFeed([
      {
        id: 'ci40000001',
        mag: 6.3,
        place: '12 km NE of Ridgecrest, CA',
        lon: -117.55,
        lat: 35.7,
        alert: 'orange',
        status: 'reviewed',
        time: clock.now() - 600_000,
      },
    ]);
    await poll('usgs');
    const list = await events(near.key);
    assert.equal(list.length, 1);
    assert.equal(list[0].severity, 'high');
    assert.equal(list[0].review_status, 'needs_review');
    const evidence = (
      await call(ctx.app, 'GET', `/api/intelligence/crisis-events/${list[0].id}/evidence`, { key: near.key })
    ).data;
    assert.equal(evidence.source_refs.length, 2);
  });

  it('a flood warning matches a place name; a later setting picks up recent hazards', async () => {
    floods = floodsBody([
      {
        area: '122WAC953',
        description: 'River Wharfe at Tadcaster',
        county: 'North Yorkshire',
        river: 'River Wharfe',
        level: 2,
        severity: 'Flood warning',
      },
    ]);
    clock.set(Date.parse('2026-11-21T10:05:00Z'));
    await poll('environment_agency');
    const [event] = await events(york.key);
    assert.ok(event);
    assert.equal(event.provider_severity, 'Flood warning (severity level 2)');
    assert.equal((await events(york.key, '?source=environment_agency')).length, 1);
    assert.equal((await events(near.key, '?source=environment_agency')).length, 0);
    // Far moves to Yorkshire: the warning already seen becomes their event.
    await call(ctx.app, 'PUT', '/api/intelligence/resilience-settings', {
      key: far.key,
      body: { location_query: 'north yorkshire' },
    });
    assert.equal((await events(far.key)).length, 1);
  });

  it('a warning no longer in force resolves the event', async () => {
    floods = floodsBody([
      {
        area: '122WAC953',
        description: 'River Wharfe at Tadcaster',
        county: 'North Yorkshire',
        river: 'River Wharfe',
        level: 4,
        severity: 'Warning no longer in force',
      },
    ]);
    await poll('environment_agency');
    const [event] = await events(york.key);
    assert.equal(event.source_state, 'Warning no longer in force');
    assert.equal(event.status, 'active');
    const jobs = await ctx.app.services.db
      .selectFrom('jobs')
      .select('payload')
      .where('type', '=', 'domain-event')
      .execute();
    const types = jobs
      .map((j) => JSON.parse(j.payload))
      .filter((p) => p.data.crisis_event_id === event.id)
      .map((p) => p.type);
    assert.deepEqual(types, ['crisis.event.opened', 'crisis.event.resolved']);
  });

  it('freshness turns stale after the source window (usgs 24 h)', async () => {
    clock.advance(25 * 3600_000);
    assert.equal((await events(near.key, '?freshness=stale')).length, 1);
    assert.equal((await events(near.key, '?freshness=fresh')).length, 0);
  });

  it('resilience settings: bad query → 400, unknown field → 400, null clears', async () => {
    for (const body of [
      { location_query: '95,0,10' },
      { location_query: '1,2' },
      { location_query: 'Leeds', x: 1 },
      { location_query: 5 },
    ]) {
      assertProblem(
        await call(ctx.app, 'PUT', '/api/intelligence/resilience-settings', { key: near.key, body }),
        400,
      );
    }
    const cleared = await call(ctx.app, 'PUT', '/api/intelligence/resilience-settings', {
      key: near.key,
      body: { location_query: null },
    });
    // Upstream's model reads a string: none set is ''.
    assert.equal(cleared.data.location_query, '');
    assertProblem(await call(ctx.app, 'GET', '/api/intelligence/resilience-settings'), 401);
  });

  it('location matching rules', () => {
    const point = parseLocationQuery('35.6,-117.6,100');
    assert.ok(!('error' in point));
    assert.ok(hazardMatches(point, { place: null, areas: [], latitude: 35.7, longitude: -117.55 }).match);
    assert.ok(!hazardMatches(point, { place: null, areas: [], latitude: 40, longitude: -117.55 }).match);
    const place = parseLocationQuery('Ridgecrest');
    assert.ok(!('error' in place));
    assert.ok(
      hazardMatches(place, {
        place: '12 km NE of Ridgecrest, CA',
        areas: [],
        latitude: null,
        longitude: null,
      }).match,
    );
    assert.ok(
      !hazardMatches(place, { place: 'Ridgecrestville', areas: [], latitude: null, longitude: null }).match,
    );
  });

  it('one detector at a time: another instance does not detect while this one holds the lease', async () => {
    const { db, singletons } = ctx.app.services;
    await ctx.app.services.engine.tick();
    // What the heartbeat does every 5 s in a running service (this test's clock jumps ahead by hand).
    await singletons.renew();
    const held = await db
      .selectFrom('leases')
      .selectAll()
      .where('name', '=', 'crisis-detection')
      .executeTakeFirstOrThrow();
    assert.equal(held.holder, singletons.instanceId);
    const other = new Singletons(new LeaseStore(platformTables(db)), clock, 'other-instance');
    let detected = false;
    await other.run('crisis-detection', async () => {
      detected = true;
    });
    assert.equal(detected, false);
  });
});
