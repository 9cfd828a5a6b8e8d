// Provider answers in their real wire formats, shared by the adapter and hazard tests.
const NOW = Date.parse('2026-11-21T10:00:00Z');

/** A USGS GeoJSON summary feed (all_hour.geojson) in its real shape. */
export function usgsFeed(
  features: {
    id: string;
    mag: number | null;
    place: string;
    lon: number;
    lat: number;
    alert?: string | null;
    status?: string;
    time?: number;
  }[],
) {
  return JSON.stringify({
    type: 'FeatureCollection',
    metadata: {
      generated: NOW - 30_000,
      url: 'https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_hour.geojson',
      title: 'USGS All Earthquakes, Past Hour',
      status: 200,
      api: '1.14.1',
      count: features.length,
    },
    features: features.map((f) => ({
      type: 'Feature',
      properties: {
        mag: f.mag,
        place: f.place,
        time: f.time ?? NOW - 600_000,
        updated: NOW - 300_000,
        tz: null,
        url: `https://earthquake.usgs.gov/earthquakes/eventpage/${f.id}`,
        detail: `https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/${f.id}.geojson`,
        felt: null,
        cdi: null,
        mmi: null,
        alert: f.alert ?? null,
        status: f.status ?? 'automatic',
        tsunami: 0,
        sig: 312,
        net: 'ci',
        code: f.id.slice(2),
        ids: `,${f.id},`,
        sources: ',ci,',
        types: ',origin,phase-data,',
        nst: 30,
        dmin: 0.05,
        rms: 0.19,
        gap: 45,
        magType: 'ml',
        type: 'earthquake',
        title: `M ${f.mag} - ${f.place}`,
      },
      geometry: { type: 'Point', coordinates: [f.lon, f.lat, 8.2] },
      id: f.id,
    })),
    bbox: [-180, -90, -10, 180, 90, 700],
  });
}

/** `GET /id/floods` of the flood-monitoring API in its real shape. */
export function floodsBody(
  items: {
    area: string;
    description: string;
    county: string;
    river: string;
    level: number;
    severity: string;
    eaArea?: string;
  }[],
) {
  return JSON.stringify({
    '@context': 'http://environment.data.gov.uk/flood-monitoring/meta/context.jsonld',
    meta: {
      publisher: 'Environment Agency',
      licence: 'http://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/',
      documentation: 'http://environment.data.gov.uk/flood-monitoring/doc/reference',
      version: '0.9',
      comment: 'Status: Beta service',
      hasFormat: ['http://environment.data.gov.uk/flood-monitoring/id/floods.csv'],
    },
    items: items.map((i) => ({
      '@id': `http://environment.data.gov.uk/flood-monitoring/id/floods/${i.area}`,
      description: i.description,
      eaAreaName: i.eaArea ?? 'Yorkshire',
      eaRegionName: 'No longer used',
      floodArea: {
        '@id': `http://environment.data.gov.uk/flood-monitoring/id/floodAreas/${i.area}`,
        county: i.county,
        notation: i.area,
        polygon: `http://environment.data.gov.uk/flood-monitoring/id/floodAreas/${i.area}/polygon`,
        riverOrSea: i.river,
      },
      floodAreaID: i.area,
      isTidal: false,
      message: `River levels are rising on the ${i.river}. Flooding of low lying land is possible.`,
      severity: i.severity,
      severityLevel: i.level,
      timeMessageChanged: '2026-11-21T09:30:00',
      timeRaised: '2026-11-21T09:30:00',
      timeSeverityChanged: '2026-11-21T09:00:00',
    })),
  });
}
