// What an export writes: the chosen TrendItem fields of each trend, as CSV (RFC 4180) or JSON Lines. Pure.

/** Every TrendItem field an export may carry, in the order `GET /api/trends` lists them. */
export const TREND_FIELDS = [
  'id',
  'title',
  'volume',
  'timestamp',
  'category',
  'sentiment',
  'sentiment_category',
  'type',
  'meta_description',
  'growth',
  'previous_volume',
  'absolute_change',
  'average_velocity',
  'trend_stability',
  'overall_trend',
  'velocity_score',
  'velocity_1h',
  'lifecycle_stage',
  'platforms',
  'velocity_window',
] as const;

/** Upstream's SDK calls the title `name`: selected as `name`, the column is `name` and carries the title. */
const FIELD_ALIASES: Record<string, (typeof TREND_FIELDS)[number]> = { name: 'title' };

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Why `name` cannot be selected, or null when it can. */
export function fieldProblem(name: string): string | null {
  if ((TREND_FIELDS as readonly string[]).includes(name) || name in FIELD_ALIASES) return null;
  return `"${name}" is not a trend field; choose from ${[...TREND_FIELDS, ...Object.keys(FIELD_ALIASES)].join(', ')}`;
}

/** The value a column carries for a trend (a TrendItem as `GET /api/trends` answers it). */
function cellValue(trend: Record<string, unknown>, column: string): unknown {
  return trend[FIELD_ALIASES[column] ?? column] ?? null;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A text cell a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return, and is not a plain number such as a sentiment of "-0.42") gets a leading `'`, as OWASP advises for
 * CSV files: trend names come from public posts.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !NUMBER.test(text) ? `'${text}` : text;
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string'
      ? neutraliseFormula(value)
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180: a header row of the column names, then one record per trend; CRLF line ends. */
export function toCsv(trends: Record<string, unknown>[], columns: readonly string[]): string {
  const lines = [columns.map(csvCell).join(',')];
  for (const trend of trends) lines.push(columns.map((c) => csvCell(cellValue(trend, c))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** One JSON object per line holding the columns in order (values exactly as the API gives them). */
export function toJsonLines(trends: Record<string, unknown>[], columns: readonly string[]): string {
  return trends
    .map((trend) => `${JSON.stringify(Object.fromEntries(columns.map((c) => [c, cellValue(trend, c)])))}\n`)
    .join('');
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

/** `crestwatch-trends-20261121T100000Z-42.csv`: when the run was queued and its history id. */
export function fileName(queuedAt: number, historyId: number, format: ExportFormat): string {
  const stamp = new Date(queuedAt)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `crestwatch-trends-${stamp}-${historyId}.${format}`;
}
