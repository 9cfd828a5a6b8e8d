// The `config` object of each destination: checked key by key (unknown keys are 400s naming them), split into
// the settings kept as JSON and the secrets kept encrypted, and shown back with the secrets masked. Pure.
import net from 'node:net';
import { badRequest } from '../../platform/errors.ts';
import { EXPORT_FORMATS, type ExportFormat } from './files.ts';

export const DESTINATIONS = ['aws', 'gcp', 'email'] as const;
export type Destination = (typeof DESTINATIONS)[number];

/** What a secret looks like in responses; sending it back as the secret is refused. */
export const SECRET_MASK = '••••';

export const PERIODS = ['1h', '24h', '7d', '30d'] as const;
export const SORTS = ['volume', 'velocity', 'growth', 'timestamp', 'name'] as const;
export const ORDERS = ['desc', 'asc'] as const;
const MAX_EXPORT_ROWS = 10_000;
const DEFAULT_EXPORT_ROWS = 100;

/** The trend list's filters (`GET /api/trends`), with their defaults filled in. */
export interface ExportFilters {
  period: (typeof PERIODS)[number];
  sort_by: (typeof SORTS)[number];
  order: (typeof ORDERS)[number];
  limit: number;
  category?: string;
  search?: string;
}

interface CommonSettings {
  format: ExportFormat;
  filters: ExportFilters;
}

/** `aws` and `gcp`: an S3-compatible bucket. */
export interface BucketSettings extends CommonSettings {
  bucket: string;
  region: string;
  access_key_id: string;
  /** Base URL of a non-AWS service (path-style addressing); null = AWS itself (or Cloud Storage for gcp). */
  endpoint: string | null;
  /** Prepended to every object key; empty or ending in `/`. */
  prefix: string;
}

const SMTP_SECURITY = ['starttls', 'tls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

export interface EmailSettings extends CommonSettings {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  from: string;
  to: string[];
  subject: string | null;
}

export type Settings = BucketSettings | EmailSettings;

export interface Secrets {
  secret_access_key?: string;
  password?: string;
}

export const GCS_ENDPOINT = 'https://storage.googleapis.com';
const MAX_RECIPIENTS = 10;

const KEYS: Record<Destination, readonly string[]> = {
  aws: ['bucket', 'region', 'access_key_id', 'secret_access_key', 'endpoint', 'prefix', 'format', 'filters'],
  gcp: ['bucket', 'access_key_id', 'secret_access_key', 'endpoint', 'prefix', 'format', 'filters'],
  email: ['host', 'port', 'security', 'username', 'password', 'from', 'to', 'subject', 'format', 'filters'],
};
const FILTER_KEYS = ['period', 'category', 'search', 'sort_by', 'order', 'limit'] as const;

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const BUCKET = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9]+(-[a-z0-9]+)*$/;
// One address, no display name: nothing that could add a header or a second recipient.
const EMAIL = /^[^\s@<>()[\]",;:\\]+@[^\s@<>()[\]",;:\\]+\.[^\s@<>()[\]",;:\\]+$/;
// Printable ASCII without spaces: what S3 access keys and HMAC access ids are made of.
const KEY_ID = /^[\x21-\x7e]{1,128}$/;

const fieldOf = (key: string) => `config.${key}`;

function text(
  raw: Record<string, unknown>,
  key: string,
  options: { required?: boolean; max: number; pattern?: RegExp; what?: string },
): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null) {
    if (options.required) throw badRequest(`${fieldOf(key)} is required.`, fieldOf(key));
    return undefined;
  }
  if (typeof value !== 'string' || value.length === 0 || value.length > options.max) {
    throw badRequest(`${fieldOf(key)} must be a string of 1 to ${options.max} characters.`, fieldOf(key));
  }
  if (/[\r\n\0]/.test(value)) {
    throw badRequest(`${fieldOf(key)} must not contain line breaks.`, fieldOf(key));
  }
  if (options.pattern && !options.pattern.test(value)) {
    throw badRequest(`${fieldOf(key)} must be ${options.what}.`, fieldOf(key));
  }
  return value;
}

function secret(raw: Record<string, unknown>, key: string, required: boolean): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null) {
    if (required) throw badRequest(`${fieldOf(key)} is required.`, fieldOf(key));
    return undefined;
  }
  // The value itself is never repeated in a message.
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) {
    throw badRequest(`${fieldOf(key)} must be a string of 1 to 512 characters.`, fieldOf(key));
  }
  if (value === SECRET_MASK) {
    throw badRequest(
      `${fieldOf(key)} is the mask responses show in place of the secret: send the secret itself.`,
      fieldOf(key),
    );
  }
  return value;
}

function oneOf<T extends string>(
  raw: Record<string, unknown>,
  key: string,
  allowed: readonly T[],
  path = fieldOf(key),
): T | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw badRequest(`${path} must be one of ${allowed.join(', ')}.`, path);
  }
  return value as T;
}

function integer(raw: Record<string, unknown>, key: string, min: number, max: number, path: string) {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`${path} must be an integer from ${min} to ${max}.`, path);
  }
  return value;
}

function rejectUnknown(raw: Record<string, unknown>, known: readonly string[], where: string, what: string) {
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) {
      throw badRequest(
        `${where}.${key} is not a setting ${what}; the settings are ${known.join(', ')}.`,
        `${where}.${key}`,
      );
    }
  }
}

function filtersOf(value: unknown, checkCategory: (category: string) => void): ExportFilters {
  const path = fieldOf('filters');
  if (value === undefined || value === null) {
    return { period: '24h', sort_by: 'volume', order: 'desc', limit: DEFAULT_EXPORT_ROWS };
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`${path} must be an object.`, path);
  }
  const raw = value as Record<string, unknown>;
  rejectUnknown(raw, FILTER_KEYS, path, 'of the trend filters');
  const filters: ExportFilters = {
    period: oneOf(raw, 'period', PERIODS, `${path}.period`) ?? '24h',
    sort_by: oneOf(raw, 'sort_by', SORTS, `${path}.sort_by`) ?? 'volume',
    order: oneOf(raw, 'order', ORDERS, `${path}.order`) ?? 'desc',
    limit: integer(raw, 'limit', 1, MAX_EXPORT_ROWS, `${path}.limit`) ?? DEFAULT_EXPORT_ROWS,
  };
  for (const key of ['category', 'search'] as const) {
    const v = raw[key];
    if (v === undefined || v === null) continue;
    const max = key === 'category' ? 120 : 200;
    if (typeof v !== 'string' || v.length === 0 || v.length > max) {
      throw badRequest(`${path}.${key} must be a string of 1 to ${max} characters.`, `${path}.${key}`);
    }
    filters[key] = v;
  }
  if (filters.category !== undefined) checkCategory(filters.category);
  return filters;
}

/** An endpoint's syntax: an absolute http(s) base URL (no path, query or credentials), as its origin. */
function endpointOf(raw: Record<string, unknown>): string | null {
  const value = text(raw, 'endpoint', { max: 2048 });
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest('config.endpoint must be an absolute http(s) URL.', 'config.endpoint');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest('config.endpoint must use http or https.', 'config.endpoint');
  }
  if (url.username || url.password) {
    throw badRequest('config.endpoint must not contain credentials.', 'config.endpoint');
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw badRequest(
      'config.endpoint must be the service’s base URL (scheme, host and port) without a path or query.',
      'config.endpoint',
    );
  }
  return url.origin;
}

function prefixOf(raw: Record<string, unknown>): string {
  const value = text(raw, 'prefix', { max: 512 });
  if (value === undefined) return '';
  if (value.startsWith('/')) throw badRequest('config.prefix must not start with "/".', 'config.prefix');
  return value.endsWith('/') ? value : `${value}/`;
}

function recipients(raw: Record<string, unknown>): string[] {
  const value = raw.to;
  const list = typeof value === 'string' ? [value] : value;
  if (list === undefined || list === null) throw badRequest('config.to is required.', 'config.to');
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_RECIPIENTS) {
    throw badRequest(
      `config.to must be an e-mail address or a list of 1 to ${MAX_RECIPIENTS} of them.`,
      'config.to',
    );
  }
  return list.map((address, i) => {
    if (typeof address !== 'string' || address.length > 254 || !EMAIL.test(address)) {
      throw badRequest(
        `config.to[${i}] must be a plain e-mail address (name@example.com).`,
        `config.to[${i}]`,
      );
    }
    return address;
  });
}

function hostOf(raw: Record<string, unknown>): string {
  const value = text(raw, 'host', { required: true, max: 253 })!;
  const host = value.toLowerCase().replace(/^\[|\]$/g, '');
  if (!net.isIP(host) && !HOSTNAME.test(host)) {
    throw badRequest('config.host must be a host name or an IP address.', 'config.host');
  }
  return host;
}

/**
 * Checks a destination's `config`: the settings to keep (defaults filled in) and the secrets to encrypt.
 * Throws 400s naming `config.<key>`; `checkCategory` throws for a category outside the taxonomy.
 */
export function parseConfig(
  destination: Destination,
  raw: Record<string, unknown>,
  checkCategory: (category: string) => void,
): { settings: Settings; secrets: Secrets } {
  rejectUnknown(raw, KEYS[destination], 'config', `of the ${destination} destination`);
  const common: CommonSettings = {
    format: oneOf(raw, 'format', EXPORT_FORMATS) ?? 'csv',
    filters: filtersOf(raw.filters, checkCategory),
  };
  if (destination === 'email') {
    const security = oneOf(raw, 'security', SMTP_SECURITY) ?? 'starttls';
    const username = text(raw, 'username', { max: 256 }) ?? null;
    const password = secret(raw, 'password', false);
    if (password !== undefined && username === null) {
      throw badRequest('config.password needs config.username.', 'config.password');
    }
    if (username !== null && password === undefined) {
      throw badRequest('config.password is required with config.username.', 'config.password');
    }
    const from = text(raw, 'from', {
      required: true,
      max: 254,
      pattern: EMAIL,
      what: 'a plain e-mail address',
    })!;
    const settings: EmailSettings = {
      host: hostOf(raw),
      port: integer(raw, 'port', 1, 65_535, 'config.port') ?? (security === 'tls' ? 465 : 587),
      security,
      username,
      from,
      to: recipients(raw),
      subject: text(raw, 'subject', { max: 200 }) ?? null,
      ...common,
    };
    return { settings, secrets: password === undefined ? {} : { password } };
  }
  const settings: BucketSettings = {
    bucket: text(raw, 'bucket', {
      required: true,
      max: 63,
      pattern: BUCKET,
      what: 'a bucket name (3 to 63 lowercase letters, digits, dots, hyphens or underscores)',
    })!,
    region:
      destination === 'gcp'
        ? 'auto'
        : (text(raw, 'region', { max: 32, pattern: REGION, what: 'a region such as eu-west-1' }) ??
          'us-east-1'),
    access_key_id: text(raw, 'access_key_id', {
      required: true,
      max: 128,
      pattern: KEY_ID,
      what: 'an access key id (printable characters without spaces)',
    })!,
    endpoint: endpointOf(raw),
    prefix: prefixOf(raw),
    ...common,
  };
  return { settings, secrets: { secret_access_key: secret(raw, 'secret_access_key', true)! } };
}

/** The settings as responses show them: each secret that is set appears as the mask, never itself. */
export function maskedConfig(settings: Settings, secretKeys: string[]): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...settings };
  for (const key of secretKeys) shown[key] = SECRET_MASK;
  return shown;
}

/** The URL or address a run's file went to, for the history row. */
export function fileUrl(destination: Destination, settings: Settings, key: string): string {
  if (destination === 'email') return `mailto:${(settings as EmailSettings).to.join(',')}`;
  const bucket = settings as BucketSettings;
  if (bucket.endpoint === null) return `${destination === 'gcp' ? 'gs' : 's3'}://${bucket.bucket}/${key}`;
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${bucket.endpoint}/${bucket.bucket}/${path}`;
}
