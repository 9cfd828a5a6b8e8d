// Pure formatting for the pages.

const NUMBER = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : NUMBER.format(value);
}

/** Growth in percent with its sign; null (nothing in the previous period) reads "new". */
export function formatGrowth(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'new';
  return `${value > 0 ? '+' : ''}${NUMBER.format(value)} %`;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** Platform counts as shares of the whole, largest first. */
export function platformShares(platforms: Record<string, number>): { name: string; share: number }[] {
  const total = Object.values(platforms).reduce((a, b) => a + b, 0);
  if (total === 0) return [];
  return Object.entries(platforms)
    .map(([name, count]) => ({ name, share: count / total }))
    .sort((a, b) => b.share - a.share || a.name.localeCompare(b.name));
}

/** SVG polyline points for a sparkline of `values` in a width × height box (flat at the bottom when all 0). */
export function sparklinePoints(values: number[], width: number, height: number): string {
  if (values.length === 0) return '';
  const max = Math.max(...values, 1);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  return values
    .map((v, i) => `${(i * step).toFixed(1)},${(height - (v / max) * (height - 2) - 1).toFixed(1)}`)
    .join(' ');
}

export const SEVERITIES = ['critical', 'high', 'medium', 'low'];

/** Events by severity, most severe first, empty groups left out; each group keeps the API's order. */
export function groupBySeverity<T extends { severity: string }>(events: T[]): [string, T[]][] {
  return SEVERITIES.map((s): [string, T[]] => [s, events.filter((e) => e.severity === s)]).filter(
    ([, list]) => list.length > 0,
  );
}
