// Hazard observations as the USGS and Environment Agency adapters produce them, and how a user's
// `location_query` selects them: `lat,lon,radius_km` (great-circle distance) or a place name matched as
// whole words against the feed's own place and area names (no geocoder).
import type { Severity } from './scoring.ts';

export type HazardSourceId = 'usgs' | 'environment_agency';

export interface HazardObservation {
  source: HazardSourceId;
  /** The provider's id of the record (USGS event id, EA flood area notation). */
  reference_id: string;
  title: string;
  /** USGS `place`; EA `description`. */
  place: string | null;
  /** EA area names (eaAreaName, county, river or sea). */
  areas: string[];
  latitude: number | null;
  longitude: number | null;
  magnitude: number | null;
  alert: string | null;
  /** The provider's own severity words, e.g. `M 5.2 (PAGER alert: orange)` or `Flood warning (level 2)`. */
  provider_severity: string;
  severity: Severity;
  /** The provider's state of the record: USGS `status`, EA severity words (e.g. `Warning no longer in force`). */
  source_state: string;
  /** True when the provider says the hazard is over (EA level 4, USGS deleted). */
  ended: boolean;
  /** http(s) link to the provider's record. */
  url: string;
  /** What the evidence item shows (bounded). */
  excerpt: string;
  attribution: string;
  licence_url: string;
  observed_at: number;
}

export type HazardSink = (observations: HazardObservation[]) => Promise<unknown>;

export type LocationQuery =
  | { kind: 'point'; lat: number; lon: number; radiusKm: number }
  | { kind: 'place'; name: string };

const POINT = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(\d{1,5}(?:\.\d+)?)\s*$/;

/** Parses a location query; a string that looks numeric but is out of range → an error message. */
export function parseLocationQuery(raw: string): LocationQuery | { error: string } {
  const text = raw.trim();
  const m = POINT.exec(text);
  if (m) {
    const [lat, lon, radiusKm] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (lat < -90 || lat > 90) return { error: 'latitude must be between -90 and 90' };
    if (lon < -180 || lon > 180) return { error: 'longitude must be between -180 and 180' };
    if (radiusKm <= 0 || radiusKm > 20_000) return { error: 'radius_km must be above 0 and at most 20000' };
    return { kind: 'point', lat, lon, radiusKm };
  }
  if (/^[\d\s.,+-]+$/.test(text)) return { error: 'must be `lat,lon,radius_km` or a place name' };
  if (Array.from(text).length < 2) return { error: 'a place name needs at least 2 characters' };
  return { kind: 'place', name: text };
}

/** Great-circle distance in km (haversine, mean Earth radius 6371 km). */
function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Whole-word, case- and accent-insensitive containment. */
export function wordMatch(haystack: string, needle: string): boolean {
  const n = fold(needle);
  if (n.length === 0) return false;
  return ` ${fold(haystack)} `.includes(` ${n} `);
}

interface HazardPlace {
  place: string | null;
  areas: string[];
  latitude: number | null;
  longitude: number | null;
}

/** Whether a hazard concerns a user with this location query; with the distance when measured. */
export function hazardMatches(
  query: LocationQuery,
  hazard: HazardPlace,
): { match: boolean; distanceKm?: number } {
  if (query.kind === 'point') {
    if (hazard.latitude === null || hazard.longitude === null) return { match: false };
    const d = distanceKm(query.lat, query.lon, hazard.latitude, hazard.longitude);
    return { match: d <= query.radiusKm, distanceKm: Math.round(d * 10) / 10 };
  }
  const names = [hazard.place ?? '', ...hazard.areas].filter(Boolean);
  return { match: names.some((name) => wordMatch(name, query.name)) };
}
