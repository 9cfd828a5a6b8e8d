// The exports module's pure parts: file rendering (RFC 4180 CSV, JSON Lines, the formula guard), the schedule
// and each destination's config rules.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  fileUrl,
  maskedConfig,
  parseConfig,
  SECRET_MASK,
  type Settings,
} from '../../../src/modules/exports/destinations.ts';
import { DeliveryError, describeNetworkFailure } from '../../../src/modules/exports/failures.ts';
import {
  fieldProblem,
  fileName,
  neutraliseFormula,
  TREND_FIELDS,
  toCsv,
  toJsonLines,
} from '../../../src/modules/exports/files.ts';
import { nextRunAt } from '../../../src/modules/exports/schedule.ts';
import { ApiError } from '../../../src/platform/errors.ts';
import { OutboundError } from '../../../src/platform/outbound.ts';
import { parseCsv } from './stand-ins.ts';

const anyCategory = () => {};

describe('files', () => {
  const trends = [
    {
      id: 1,
      title: 'say "cheese", please',
      volume: 12,
      growth: null,
      sentiment: '-0.42',
      platforms: { x: 3, reddit: 9 },
      meta_description: 'line one\r\nline two',
    },
    { id: 2, title: '=HYPERLINK("http://evil")', volume: 0, growth: -12.5, sentiment: null, platforms: {} },
  ];

  test('CSV: a header row, CRLF line ends, quoting per RFC 4180, JSON for objects, empty for null', () => {
    const csv = toCsv(trends, [
      'id',
      'name',
      'volume',
      'growth',
      'sentiment',
      'platforms',
      'meta_description',
    ]);
    assert.ok(csv.endsWith('\r\n'));
    const lines = csv.split('\r\n');
    assert.equal(lines[0], 'id,name,volume,growth,sentiment,platforms,meta_description');
    assert.equal(
      lines[1],
      '1,"say ""cheese"", please",12,,-0.42,"{""x"":3,""reddit"":9}","line one',
      'quotes doubled, commas and line breaks quoted',
    );
    assert.deepEqual(parseCsv(csv), [
      ['id', 'name', 'volume', 'growth', 'sentiment', 'platforms', 'meta_description'],
      ['1', 'say "cheese", please', '12', '', '-0.42', '{"x":3,"reddit":9}', 'line one\r\nline two'],
      ['2', '\'=HYPERLINK("http://evil")', '0', '-12.5', '', '{}', ''],
    ]);
  });

  test('the formula guard prefixes text a spreadsheet would run, never numbers', () => {
    for (const [input, output] of [
      ['=1+2', "'=1+2"],
      ['+cmd', "'+cmd"],
      ['-cmd|x', "'-cmd|x"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\tx', "'\tx"],
      ['-0.42', '-0.42'],
      ['+3', '+3'],
      ['-1e5', '-1e5'],
      ['plain', 'plain'],
      ['a=b', 'a=b'],
    ]) {
      assert.equal(neutraliseFormula(input!), output, input);
    }
  });

  test('JSON Lines: one object per line with the columns in order, values untouched', () => {
    const text = toJsonLines(trends, ['name', 'growth', 'platforms']);
    assert.equal(
      text,
      '{"name":"say \\"cheese\\", please","growth":null,"platforms":{"x":3,"reddit":9}}\n' +
        '{"name":"=HYPERLINK(\\"http://evil\\")","growth":-12.5,"platforms":{}}\n',
    );
    assert.equal(toJsonLines([], ['id']), '');
    assert.equal(toCsv([], ['id', 'title']), 'id,title\r\n');
  });

  test('field names: every TrendItem field and `name`; anything else is named in the problem', () => {
    for (const field of [...TREND_FIELDS, 'name']) assert.equal(fieldProblem(field), null);
    assert.match(String(fieldProblem('colour')), /^"colour" is not a trend field; choose from id, title/);
    assert.equal(
      fileName(Date.parse('2026-11-21T10:30:05.123Z'), 42, 'csv'),
      'crestwatch-trends-20261121T103005Z-42.csv',
    );
  });
});

describe('schedule', () => {
  const at = (iso: string) => Date.parse(iso);
  const iso = (ms: number) => new Date(ms).toISOString();

  test('daily: today at the time when it is still ahead, else tomorrow; never the same instant', () => {
    assert.equal(
      iso(nextRunAt('daily', '10:30', null, at('2026-11-21T10:00:00Z'))),
      '2026-11-21T10:30:00.000Z',
    );
    assert.equal(
      iso(nextRunAt('daily', '10:30', null, at('2026-11-21T10:30:00Z'))),
      '2026-11-22T10:30:00.000Z',
    );
    assert.equal(
      iso(nextRunAt('daily', '00:00', null, at('2026-12-31T23:59:00Z'))),
      '2027-01-01T00:00:00.000Z',
    );
  });

  test('weekly: the next given weekday (0 = Sunday) at the time', () => {
    // 2026-11-21 is a Saturday (6).
    assert.equal(
      iso(nextRunAt('weekly', '09:00', 6, at('2026-11-21T08:00:00Z'))),
      '2026-11-21T09:00:00.000Z',
    );
    assert.equal(
      iso(nextRunAt('weekly', '09:00', 6, at('2026-11-21T09:00:00Z'))),
      '2026-11-28T09:00:00.000Z',
    );
    assert.equal(
      iso(nextRunAt('weekly', '23:59', 1, at('2026-11-21T09:00:00Z'))),
      '2026-11-23T23:59:00.000Z',
    );
    assert.equal(
      iso(nextRunAt('weekly', '00:00', 0, at('2026-11-21T09:00:00Z'))),
      '2026-11-22T00:00:00.000Z',
    );
  });
});

describe('destination configs', () => {
  const error = (fn: () => unknown): ApiError => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof ApiError);
      return e;
    }
    throw new Error('expected a 400');
  };

  test('aws: defaults filled in, the secret split off, the prefix made a folder', () => {
    const { settings, secrets } = parseConfig(
      'aws',
      { bucket: 'b-1', access_key_id: 'AKIA1', secret_access_key: 's3cr3t', prefix: 'a/b' },
      anyCategory,
    );
    assert.deepEqual(settings, {
      format: 'csv',
      filters: { period: '24h', sort_by: 'volume', order: 'desc', limit: 100 },
      bucket: 'b-1',
      region: 'us-east-1',
      access_key_id: 'AKIA1',
      endpoint: null,
      prefix: 'a/b/',
    });
    assert.deepEqual(secrets, { secret_access_key: 's3cr3t' });
    assert.equal(maskedConfig(settings, ['secret_access_key']).secret_access_key, SECRET_MASK);
    assert.equal(fileUrl('aws', settings, 'a/b/f.csv'), 's3://b-1/a/b/f.csv');
    assert.equal(fileUrl('gcp', settings, 'f.csv'), 'gs://b-1/f.csv');
    assert.equal(
      fileUrl('aws', { ...settings, endpoint: 'http://127.0.0.1:9000' } as Settings, 'a b/f.csv'),
      'http://127.0.0.1:9000/b-1/a%20b/f.csv',
    );
  });

  test('email: port 465 with tls, 587 otherwise; one recipient or a list; a login needs both halves', () => {
    const base = { host: 'Mail.Example.com', from: 'a@example.com', to: 'b@example.com' };
    const tls = parseConfig('email', { ...base, security: 'tls' }, anyCategory).settings;
    assert.equal((tls as { port: number }).port, 465);
    assert.equal((tls as { host: string }).host, 'mail.example.com');
    const plain = parseConfig('email', base, anyCategory);
    assert.equal((plain.settings as { port: number }).port, 587);
    assert.deepEqual((plain.settings as { to: string[] }).to, ['b@example.com']);
    assert.deepEqual(plain.secrets, {});
    assert.equal(fileUrl('email', plain.settings, 'f.csv'), 'mailto:b@example.com');
    assert.equal(error(() => parseConfig('email', { ...base, username: 'u' }, anyCategory)).status, 400);
    assert.match(
      error(() => parseConfig('email', { ...base, to: 'b@example.com\r\nBcc: x@evil.test' }, anyCategory))
        .detail,
      /config\.to\[0\]/,
    );
    assert.match(
      error(() => parseConfig('email', { ...base, host: 'bad host' }, anyCategory)).detail,
      /config\.host/,
    );
  });

  test('messages name the key and never repeat a secret', () => {
    const secret = 'x'.repeat(600);
    const tooLong = error(() =>
      parseConfig('aws', { bucket: 'b-1', access_key_id: 'A', secret_access_key: secret }, anyCategory),
    );
    assert.match(tooLong.detail, /config\.secret_access_key/);
    assert.ok(!tooLong.detail.includes('xxxx'));
    const unknown = error(() => parseConfig('gcp', { bucket: 'b-1', region: 'eu' }, anyCategory));
    assert.match(unknown.detail, /config\.region is not a setting of the gcp destination/);
  });
});

describe('failures', () => {
  test('network failures become our own sentences; a guard refusal is final', () => {
    const refused = describeNetworkFailure(
      Object.assign(new Error('socket'), {
        cause: new OutboundError('refused', 'h resolves to 10.0.0.1: private.'),
      }),
      'the storage endpoint',
    );
    assert.equal(refused.retryable, false);
    assert.match(refused.message, /not allowed: h resolves to 10\.0\.0\.1/);
    const reset = describeNetworkFailure(
      Object.assign(new Error('x'), { code: 'ECONNRESET' }),
      'the SMTP server',
    );
    assert.deepEqual([reset.message, reset.retryable], ['The SMTP server closed the connection.', true]);
    const odd = describeNetworkFailure(
      Object.assign(new Error('provider text'), { code: 'weird code!' }),
      'x',
    );
    assert.equal(odd.message, 'The connection to x failed.');
    const same = new DeliveryError('kept', false);
    assert.equal(describeNetworkFailure(same, 'x'), same);
  });
});
