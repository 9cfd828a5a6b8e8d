import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { HazardObservation } from '../../../../src/modules/crisis/index.ts';
import { usgsSeverity } from '../../../../src/modules/crisis/index.ts';
import { SourceError } from '../../../../src/modules/signals/sources/types.ts';
import { USGS_LICENCE_URL, usgsSource } from '../../../../src/modules/signals/sources/usgs.ts';
import { usgsFeed } from '../../crisis/feeds.ts';
import { assertContract, pollContext, type StandIn, send, standIn } from './stand-in.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');

describe('USGS source', () => {
  let server: StandIn;
  let body = '';
  let status = 200;
  before(async () => {
    server = await standIn((_req, res) =>
      send(res, status, body, { 'content-type': 'application/geo+json' }),
    );
  });
  after(() => server.close());

  test('maps features to signals and hazard observations with place, magnitude, alert and licence', async () => {
    body = usgsFeed([
      {
        id: 'ci40000001',
        mag: 5.4,
        place: '12 km NE of Ridgecrest, CA',
        lon: -117.55,
        lat: 35.7,
        alert: 'yellow',
      },
      { id: 'ak0000002', mag: 1.2, place: '30 km S of Anchorage, Alaska', lon: -149.9, lat: 60.9 },
    ]);
    const seen: HazardObservation[] = [];
    const source = usgsSource({
      feedUrl: `${server.url}/all_hour.geojson`,
      intervalMs: 60_000,
      hazards: async (o) => {
        seen.push(...o);
      },
    });
    assert.equal(source.licence_url, USGS_LICENCE_URL);
    const result = await source.poll(pollContext(null, NOW));
    assert.equal(result.signals.length, 2);
    assertContract(result.signals, NOW);
    assert.equal(result.signals[0].source, 'usgs');
    assert.equal(result.signals[0].external_id, 'ci40000001');
    assert.equal(seen.length, 2);
    const quake = seen[0];
    assert.equal(quake.place, '12 km NE of Ridgecrest, CA');
    assert.equal(quake.magnitude, 5.4);
    assert.equal(quake.alert, 'yellow');
    assert.equal(quake.latitude, 35.7);
    assert.equal(quake.longitude, -117.55);
    assert.match(quake.provider_severity, /M 5\.4.*PAGER alert yellow/);
    assert.equal(quake.severity, 'medium');
    assert.equal(quake.source_state, 'automatic');
    assert.equal(quake.attribution, source.attribution);
    assert.equal(quake.licence_url, USGS_LICENCE_URL);
    assert.equal(quake.url, 'https://earthquake.usgs.gov/earthquakes/eventpage/ci40000001');
    assert.equal(seen[1].severity, 'low');
    assert.equal(result.cursor, String(NOW - 30_000));
  });

  test('severity table', () => {
    assert.equal(usgsSeverity(7.1, null), 'critical');
    assert.equal(usgsSeverity(6.2, null), 'high');
    assert.equal(usgsSeverity(4.6, null), 'medium');
    assert.equal(usgsSeverity(3, null), 'low');
    assert.equal(usgsSeverity(5, 'red'), 'critical');
    assert.equal(usgsSeverity(5, 'orange'), 'high');
  });

  test('a bad answer is a SourceError', async () => {
    const source = usgsSource({ feedUrl: `${server.url}/x`, intervalMs: 60_000 });
    status = 503;
    await assert.rejects(source.poll(pollContext(null, NOW)), SourceError);
    status = 200;
    body = '{"type":"Feature"}';
    await assert.rejects(source.poll(pollContext(null, NOW)), SourceError);
    body = 'not json';
    await assert.rejects(source.poll(pollContext(null, NOW)), SourceError);
  });
});
