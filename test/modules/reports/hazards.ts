// Hazard observations as the USGS and Environment Agency adapters hand them to the crisis module.
import type { HazardObservation } from '../../../src/modules/crisis/index.ts';

export function flood(id: string, place: string, observedAt: number, severity: 'medium' | 'high' = 'high') {
  return {
    source: 'environment_agency',
    reference_id: id,
    title: `Flood warning: ${place}`,
    place,
    areas: ['North Yorkshire'],
    latitude: null,
    longitude: null,
    magnitude: null,
    alert: null,
    provider_severity: severity === 'high' ? 'Flood warning (level 2)' : 'Flood alert (level 3)',
    severity,
    source_state: severity === 'high' ? 'Flood Warning' : 'Flood Alert',
    ended: false,
    url: `https://check-for-flooding.service.gov.uk/target-area/${id}`,
    excerpt: `Flooding is expected: ${place}.`,
    attribution: 'Environment Agency flood and river level data',
    licence_url: 'https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/',
    observed_at: observedAt,
  } satisfies HazardObservation;
}

export function quake(id: string, place: string, observedAt: number, magnitude = 5.1) {
  return {
    source: 'usgs',
    reference_id: id,
    title: `M ${magnitude} - ${place}`,
    place,
    areas: [],
    latitude: 53.88,
    longitude: -1.27,
    magnitude,
    alert: null,
    provider_severity: `M ${magnitude} (ml)`,
    severity: 'medium',
    source_state: 'reviewed',
    ended: false,
    url: `https://earthquake.usgs.gov/earthquakes/eventpage/${id}`,
    excerpt: `M ${magnitude} earthquake, ${place}.`,
    attribution: 'U.S. Geological Survey',
    licence_url: 'https://www.usgs.gov/information-policies-and-instructions/copyrights-and-credits',
    observed_at: observedAt,
  } satisfies HazardObservation;
}
