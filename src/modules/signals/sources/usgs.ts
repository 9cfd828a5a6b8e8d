// USGS earthquakes from the GeoJSON summary feed (e.g. all_hour.geojson). Each feature becomes a signal
// (source `usgs`) and a hazard observation for crisis detection, keeping the feed's place, magnitude, PAGER
// alert and status. USGS data are in the public domain; attribution is still given.
import { type HazardObservation, type HazardSink, usgsSeverity } from '../../crisis/index.ts';
import {
  clampTime,
  ensureOk,
  hostOf,
  httpGet,
  httpUrl,
  LIMITS,
  parseJson,
  shortText,
  truncate,
} from './text.ts';
import { type PollingSource, type SourceContext, SourceError, type SourceSignal } from './types.ts';

const USGS_ATTRIBUTION = 'U.S. Geological Survey, Earthquake Hazards Program';
export const USGS_LICENCE_URL =
  'https://www.usgs.gov/information-policies-and-instructions/copyrights-and-credits';

interface UsgsSourceOptions {
  /** e.g. `https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_hour.geojson` */
  feedUrl: string;
  intervalMs: number;
  /** Receives the hazard observations of each poll (the crisis detector's input). */
  hazards?: HazardSink;
}

interface Feature {
  id?: unknown;
  properties?: Record<string, unknown> | null;
  geometry?: { coordinates?: unknown } | null;
}

const num = (raw: unknown) => (typeof raw === 'number' && Number.isFinite(raw) ? raw : null);

function usgsObservation(raw: unknown, now: number): HazardObservation | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const feature = raw as Feature;
  const p = feature.properties ?? {};
  const id = shortText(feature.id, LIMITS.externalId);
  if (id === null) return null;
  const magnitude = num(p.mag);
  const alert = typeof p.alert === 'string' && /^[a-z]{1,16}$/.test(p.alert) ? p.alert : null;
  const place = shortText(p.place, 300);
  const coords = Array.isArray(feature.geometry?.coordinates) ? feature.geometry.coordinates : [];
  const lon = num(coords[0]);
  const lat = num(coords[1]);
  const depth = num(coords[2]);
  const validPoint = lat !== null && lon !== null && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
  const status = shortText(p.status, 32) ?? 'automatic';
  const magText =
    magnitude === null
      ? 'M ?'
      : `M ${magnitude.toFixed(1)}${typeof p.magType === 'string' ? ` (${shortText(p.magType, 8)})` : ''}`;
  const title = shortText(p.title, LIMITS.title) ?? `${magText} earthquake${place ? ` - ${place}` : ''}`;
  const url = httpUrl(p.url) ?? `https://earthquake.usgs.gov/earthquakes/eventpage/${encodeURIComponent(id)}`;
  const time = clampTime(num(p.time), now);
  const parts = [
    `${title}.`,
    `Magnitude ${magnitude ?? 'unknown'}${typeof p.magType === 'string' ? ` ${shortText(p.magType, 8)}` : ''}`,
    depth !== null ? `depth ${depth} km` : null,
    `time ${new Date(time).toISOString()}`,
    alert ? `PAGER alert ${alert}` : 'no PAGER alert',
    p.tsunami === 1 ? 'tsunami flag set' : null,
    `review status ${status}.`,
  ].filter(Boolean);
  return {
    source: 'usgs',
    reference_id: id,
    title,
    place,
    areas: [],
    latitude: validPoint ? lat : null,
    longitude: validPoint ? lon : null,
    magnitude,
    alert,
    provider_severity: `${magText}${alert ? `, PAGER alert ${alert}` : ''}`,
    severity: usgsSeverity(magnitude, alert),
    source_state: status,
    ended: status === 'deleted',
    url,
    excerpt: truncate(parts.join(', ').replace(/\.,/g, ','), 1000),
    attribution: USGS_ATTRIBUTION,
    licence_url: USGS_LICENCE_URL,
    observed_at: time,
  };
}

function usgsSignal(o: HazardObservation): SourceSignal {
  return {
    source: 'usgs',
    external_id: o.reference_id,
    text: o.excerpt,
    title: o.title,
    url: o.url,
    author: null,
    observed_at: o.observed_at,
    location: o.place ? truncate(o.place, 200) : null,
    keywords: ['earthquake'],
  };
}

export function usgsSource(options: UsgsSourceOptions): PollingSource {
  return {
    kind: 'poll',
    id: 'usgs',
    name: 'USGS earthquakes',
    attribution: USGS_ATTRIBUTION,
    licence_url: USGS_LICENCE_URL,
    coverage:
      'Earthquakes worldwide from the USGS GeoJSON summary feed: place, magnitude, PAGER alert and review ' +
      'status (public domain).',
    intervalMs: options.intervalMs,
    async poll(context: SourceContext) {
      const answer = await httpGet(context, options.feedUrl, {
        accept: 'application/geo+json, application/json',
      });
      ensureOk(answer, options.feedUrl);
      const body = parseJson(answer, options.feedUrl) as {
        type?: unknown;
        features?: unknown;
        metadata?: { generated?: unknown };
      };
      if (typeof body !== 'object' || body === null || !Array.isArray(body.features)) {
        throw new SourceError(
          `${hostOf(options.feedUrl)} sent something other than a GeoJSON FeatureCollection`,
        );
      }
      const observations = body.features.flatMap((f) => usgsObservation(f, context.now) ?? []);
      if (options.hazards && observations.length > 0) await options.hazards(observations);
      const generated = num(body.metadata?.generated);
      return {
        signals: observations.filter((o) => !o.ended).map(usgsSignal),
        cursor: generated === null ? context.cursor : String(generated),
      };
    },
  };
}
