// Environment Agency flood warnings (England) from the real-time flood-monitoring API, `GET {base}/id/floods`.
// Each warning becomes a signal (source `environment_agency`) and a hazard observation keeping the area
// names, severity level and message. Contains public sector information licensed under the Open Government
// Licence v3.0.
import { floodSeverity, type HazardObservation, type HazardSink } from '../../crisis/index.ts';
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

const EA_ATTRIBUTION =
  'Environment Agency flood and river level data from the real-time data API (Beta); contains public ' +
  'sector information licensed under the Open Government Licence v3.0';
export const EA_LICENCE_URL = 'https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/';

interface EnvironmentAgencySourceOptions {
  /** e.g. `https://environment.data.gov.uk/flood-monitoring` */
  baseUrl: string;
  intervalMs: number;
  hazards?: HazardSink;
}

interface FloodItem {
  '@id'?: unknown;
  description?: unknown;
  eaAreaName?: unknown;
  floodArea?: { county?: unknown; riverOrSea?: unknown; notation?: unknown } | null;
  floodAreaID?: unknown;
  isTidal?: unknown;
  message?: unknown;
  severity?: unknown;
  severityLevel?: unknown;
  timeMessageChanged?: unknown;
  timeRaised?: unknown;
  timeSeverityChanged?: unknown;
}

/** The API's times carry no zone and are UTC. */
function eaTime(raw: unknown): number | null {
  if (
    typeof raw !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.test(raw)
  ) {
    return null;
  }
  const ms = Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(raw) ? raw : `${raw}Z`);
  return Number.isFinite(ms) ? ms : null;
}

function eaObservation(raw: unknown, base: string, now: number): HazardObservation | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const item = raw as FloodItem;
  const area = shortText(item.floodAreaID, 100) ?? shortText(item.floodArea?.notation, 100);
  if (area === null) return null;
  const level =
    typeof item.severityLevel === 'number' && Number.isInteger(item.severityLevel)
      ? item.severityLevel
      : null;
  const severityWords =
    shortText(item.severity, 100) ?? (level === null ? 'Flood warning' : `Severity level ${level}`);
  const description = shortText(item.description, 300);
  const areas = [item.eaAreaName, item.floodArea?.county, item.floodArea?.riverOrSea]
    .map((a) => shortText(a, 200))
    .filter((a): a is string => a !== null);
  const changed =
    eaTime(item.timeMessageChanged) ?? eaTime(item.timeSeverityChanged) ?? eaTime(item.timeRaised);
  const observedAt = clampTime(changed, now);
  const url = httpUrl(item['@id']) ?? `${base}/id/floods/${encodeURIComponent(area)}`;
  const message = shortText(item.message, 2000);
  const title = truncate(`${severityWords}: ${description ?? area}`, LIMITS.title);
  return {
    source: 'environment_agency',
    reference_id: area,
    title,
    place: description,
    areas,
    latitude: null,
    longitude: null,
    magnitude: null,
    alert: null,
    provider_severity: level === null ? severityWords : `${severityWords} (severity level ${level})`,
    severity: floodSeverity(level),
    source_state: severityWords,
    ended: level === 4,
    url,
    excerpt: truncate(
      [`${title}.`, areas.length > 0 ? `Area: ${areas.join(', ')}.` : null, message]
        .filter(Boolean)
        .join(' '),
      1000,
    ),
    attribution: EA_ATTRIBUTION,
    licence_url: EA_LICENCE_URL,
    observed_at: observedAt,
  };
}

function eaSignal(o: HazardObservation): SourceSignal {
  return {
    source: 'environment_agency',
    external_id: truncate(`${o.reference_id}:${o.observed_at}`, LIMITS.externalId),
    text: o.excerpt,
    title: o.title,
    url: o.url,
    author: null,
    observed_at: o.observed_at,
    location: o.place ? truncate(o.place, 200) : null,
    keywords: ['flood'],
  };
}

export function environmentAgencySource(options: EnvironmentAgencySourceOptions): PollingSource {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    kind: 'poll',
    id: 'environment_agency',
    name: 'Environment Agency flood warnings',
    attribution: EA_ATTRIBUTION,
    licence_url: EA_LICENCE_URL,
    coverage:
      'Flood alerts and warnings in force in England from the Environment Agency real-time flood-monitoring ' +
      'API: area names, severity level and message (Open Government Licence v3.0).',
    intervalMs: options.intervalMs,
    async poll(context: SourceContext) {
      const url = `${base}/id/floods`;
      const answer = await httpGet(context, url, { accept: 'application/json' });
      ensureOk(answer, url);
      const body = parseJson(answer, url) as { items?: unknown };
      if (typeof body !== 'object' || body === null || !Array.isArray(body.items)) {
        throw new SourceError(`${hostOf(url)} sent a flood list without items`);
      }
      const observations = body.items.flatMap((item) => eaObservation(item, base, context.now) ?? []);
      if (options.hazards && observations.length > 0) await options.hazards(observations);
      return { signals: observations.filter((o) => !o.ended).map(eaSignal), cursor: context.cursor };
    },
  };
}
