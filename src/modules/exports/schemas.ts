// Scheduled export configurations and their run history, in upstream's shapes (ExportConfig, ExportHistory,
// ExportHistoryListResponse, ExportRunResponse) with Crestwatch's additions.
import Type, { type Static } from 'typebox';
import { DateTime, FreeForm, IdParam, Nullable, Pagination, StrictObject } from '../../platform/schemas.ts';
import { DESTINATIONS, SECRET_MASK } from './destinations.ts';
import { TREND_FIELDS } from './files.ts';
import { SCHEDULES, WEEKDAYS } from './schedule.ts';

const HISTORY_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;

const ConfigDescription =
  'The destination’s settings. `aws`: `bucket`, `region` (default `us-east-1`), `access_key_id`, ' +
  '`secret_access_key`, optional `endpoint` (the base URL of any S3-compatible service, addressed path-style) ' +
  'and `prefix` (a folder in the bucket). `gcp` (Cloud Storage through its S3-compatible XML API): `bucket`, ' +
  '`access_key_id` and `secret_access_key` of an HMAC key, optional `prefix`. `email` (SMTP): `host`, `port` ' +
  '(default 587, 465 for `tls`), `security` (`starttls` default, `tls`, `none`), `username` and `password` ' +
  '(together, optional), `from`, `to` (an address or a list of up to 10), optional `subject`. Every ' +
  'destination: `format` (`csv` default, `jsonl`) and `filters`, the trend list’s (`period`, `category`, ' +
  '`search`, `sort_by`, `order`, `limit` 1–10,000, default 100). Secrets are stored encrypted and shown as ' +
  `\`${SECRET_MASK}\`.`;

export const ExportConfigSchema = Type.Object(
  {
    id: Type.Integer(),
    user_id: Type.Integer(),
    destination: Type.Enum([...DESTINATIONS]),
    config: FreeForm({
      description:
        'The settings with their defaults filled in; `secret_access_key` and `password` appear as ' +
        `\`${SECRET_MASK}\`, never as themselves.`,
    }),
    schedule: Type.Enum([...SCHEDULES], {
      description: '`daily`, `weekly`, or `none` (never runs by itself; only run-now runs it).',
    }),
    schedule_time: Nullable(
      Type.String({
        description: '`HH:MM`, UTC; null for a `none` schedule saved without one (it is not used then).',
        examples: ['06:30'],
      }),
    ),
    is_active: Type.Boolean({
      description: 'Inactive configurations are not run on schedule (run-now still runs them).',
    }),
    selected_fields: Type.Array(Type.String(), {
      description: 'The trend fields written, in column order (every TrendItem field when none was chosen).',
    }),
    created_at: DateTime(),
    updated_at: DateTime(),
    schedule_day: Nullable(
      Type.Enum([...WEEKDAYS], {
        description: 'Weekly: the UTC weekday it runs on; null for `daily` and `none`.',
      }),
    ),
    next_run_at: Nullable(
      DateTime({
        description: 'When the schedule runs it next; null while inactive and always for `none`.',
      }),
    ),
  },
  { $id: 'ExportConfig', title: 'ExportConfig' },
);

export const ExportConfigList = Type.Array(Type.Ref('ExportConfig'), {
  description: 'A bare array, as upstream answers.',
});

export const SaveExportBody = StrictObject({
  id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 9_007_199_254_740_991,
      description:
        'Upstream’s `config_id`: replace this configuration of yours in place (answered with 200) instead of ' +
        'saving a new one (201). Another user’s or an unknown id → 404. The body is checked as a new one is, ' +
        'secrets included.',
    }),
  ),
  destination: Type.Enum([...DESTINATIONS], {
    description: '`aws` (S3 or any S3-compatible service), `gcp` (Cloud Storage) or `email` (SMTP).',
  }),
  config: FreeForm({ description: ConfigDescription }),
  schedule: Type.Enum([...SCHEDULES], {
    description:
      '`daily`, `weekly`, or `none`: never run by itself, only by run-now (upstream’s SDK saves so by default).',
  }),
  schedule_time: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
        description:
          'When it runs, `HH:MM` in UTC. Required for `daily` and `weekly`; optional (absent or null) for ' +
          '`none`, which keeps a valid time given but does not use it.',
        examples: ['06:30'],
      }),
    ),
  ),
  schedule_day: Type.Optional(
    Type.Enum([...WEEKDAYS], {
      description:
        'Weekly only: the UTC weekday (default: the weekday, UTC, on which it is saved; on an update of a ' +
        'weekly configuration, the weekday it had).',
    }),
  ),
  is_active: Type.Optional(Type.Boolean({ default: true })),
  selected_fields: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 40,
      description:
        `TrendItem fields to write, in column order: ${TREND_FIELDS.join(', ')} (and \`name\`, upstream’s ` +
        'name for `title`). Empty or omitted: all of them.',
    }),
  ),
});
export type SaveExportInput = Static<typeof SaveExportBody>;

export const ExportConfigParams = IdParam('config_id', 'The export configuration id.');

const ExportHistorySchema = Type.Object(
  {
    id: Type.Integer(),
    config_id: Nullable(Type.Integer({ description: 'Null once the configuration was deleted.' })),
    status: Type.Enum([...HISTORY_STATUSES], {
      description:
        '`queued`, `running`, `succeeded` or `failed`. A failed attempt that will be retried stays `failed` ' +
        'with `next_attempt_at` set and `completed_at` null; the last one sets `completed_at`.',
    }),
    file_url: Nullable(
      Type.String({
        description:
          'Where the file went: `s3://bucket/key` (AWS), `gs://bucket/key` (Cloud Storage), the object’s URL ' +
          '(another S3-compatible endpoint), or `mailto:` the recipients (e-mail).',
      }),
    ),
    row_count: Nullable(Type.Integer({ description: 'Trends written (not counting the CSV header).' })),
    error_message: Nullable(
      Type.String({ description: 'Why the last attempt failed, in words (never the provider’s answer).' }),
    ),
    created_at: Nullable(DateTime({ description: 'When the run was queued.' })),
    completed_at: Nullable(
      DateTime({ description: 'When the run ended for good; null while it may change.' }),
    ),
    destination: Type.Enum([...DESTINATIONS]),
    origin: Type.Enum(['schedule', 'manual'], { description: '`manual` = run-now.' }),
    attempts: Type.Integer({ description: 'Attempts started so far.' }),
    started_at: Nullable(DateTime({ description: 'When the latest attempt started.' })),
    next_attempt_at: Nullable(DateTime({ description: 'When a failed attempt is retried.' })),
  },
  { title: 'ExportHistory' },
);

export const HistoryQuery = StrictObject({
  limit: Pagination.limit,
  offset: Pagination.offset,
  config_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 9_007_199_254_740_991,
      description: 'Only the runs of this configuration (one of yours).',
    }),
  ),
});

export const ExportHistoryListResponse = Type.Object(
  {
    history: Type.Array(ExportHistorySchema),
    meta: Type.Object(
      {
        total: Type.Integer({ description: 'Runs matching, over all pages.' }),
        limit: Type.Integer(),
        offset: Type.Integer(),
        config_id: Nullable(Type.Integer({ description: 'The configuration filter applied, if any.' })),
      },
      { title: 'ExportHistoryMeta', description: 'Upstream’s PaginationMeta fields that apply here.' },
    ),
  },
  { title: 'ExportHistoryListResponse' },
);

export const ExportRunResponse = Type.Object(
  {
    success: Type.Boolean(),
    message: Nullable(Type.String()),
    execution_log_id: Nullable(Type.Integer({ description: 'The run’s id in the export history.' })),
    status: Nullable(Type.String({ description: '`queued`.' })),
  },
  { title: 'ExportRunResponse' },
);
