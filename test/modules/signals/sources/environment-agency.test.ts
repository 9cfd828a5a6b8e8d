import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { HazardObservation } from '../../../../src/modules/crisis/index.ts';
import {
  EA_LICENCE_URL,
  environmentAgencySource,
} from '../../../../src/modules/signals/sources/environment-agency.ts';
import { SourceError } from '../../../../src/modules/signals/sources/types.ts';
import { floodsBody } from '../../crisis/feeds.ts';
import { assertContract, pollContext, type StandIn, send, standIn } from './stand-in.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');

describe('Environment Agency source', () => {
  let server: StandIn;
  let body = '';
  before(async () => {
    server = await standIn((req, res) => {
      if (req.url !== '/flood-monitoring/id/floods') return send(res, 404, '');
      send(res, 200, body, { 'content-type': 'application/json' });
    });
  });
  after(() => server.close());

  test('maps flood warnings with area names, severity level and the Open Government Licence', async () => {
    body = floodsBody([
      {
        area: '122WAC953',
        description: 'River Wharfe at Tadcaster',
        county: 'North Yorkshire',
        river: 'River Wharfe',
        level: 2,
        severity: 'Flood warning',
      },
      {
        area: '062FAG30',
        description: 'River Thames at Oxford',
        county: 'Oxfordshire',
        river: 'River Thames',
        level: 4,
        severity: 'Warning no longer in force',
        eaArea: 'Thames',
      },
    ]);
    const seen: HazardObservation[] = [];
    const source = environmentAgencySource({
      baseUrl: `${server.url}/flood-monitoring/`,
      intervalMs: 60_000,
      hazards: async (o) => {
        seen.push(...o);
      },
    });
    const result = await source.poll(pollContext(null, NOW));
    assertContract(result.signals, NOW);
    assert.equal(result.signals.length, 1, 'a warning no longer in force is no signal');
    assert.equal(result.signals[0].source, 'environment_agency');
    assert.equal(seen.length, 2);
    const [wharfe, thames] = seen;
    assert.equal(wharfe.reference_id, '122WAC953');
    assert.equal(wharfe.place, 'River Wharfe at Tadcaster');
    assert.deepEqual(wharfe.areas, ['Yorkshire', 'North Yorkshire', 'River Wharfe']);
    assert.equal(wharfe.severity, 'high');
    assert.equal(wharfe.provider_severity, 'Flood warning (severity level 2)');
    assert.equal(wharfe.source_state, 'Flood warning');
    assert.equal(wharfe.licence_url, EA_LICENCE_URL);
    assert.match(wharfe.attribution, /Open Government Licence/);
    assert.equal(wharfe.observed_at, Date.parse('2026-11-21T09:30:00Z'));
    assert.equal(wharfe.url, 'http://environment.data.gov.uk/flood-monitoring/id/floods/122WAC953');
    assert.equal(thames.ended, true);
  });

  test('an answer without items is a SourceError', async () => {
    body = '{"items": 3}';
    const source = environmentAgencySource({ baseUrl: `${server.url}/flood-monitoring`, intervalMs: 60_000 });
    await assert.rejects(source.poll(pollContext(null, NOW)), SourceError);
  });
});
