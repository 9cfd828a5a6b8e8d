// Every table of the app, as one Kysely type: the platform's own and each module's. The composition root opens
// the database with it; stores type their queries with it. Types only.
import type { Kysely, Transaction } from 'kysely';
import type { AccountsTables } from './modules/accounts/tables.ts';
import type { ContentTables } from './modules/content/tables.ts';
import type { CrisisTables } from './modules/crisis/tables.ts';
import type { ExportsTables } from './modules/exports/tables.ts';
import type { InsightsTables } from './modules/insights/tables.ts';
import type { IntegrationsTables } from './modules/integrations/tables.ts';
import type { WorkflowTables } from './modules/integrations/workflow/tables.ts';
import type { NotificationsTables } from './modules/notifications/tables.ts';
import type { OrganisationsTables } from './modules/organisations/tables.ts';
import type { RecommendationsTables } from './modules/recommendations/tables.ts';
import type { ReportsTables } from './modules/reports/tables.ts';
import type { SignalsTables } from './modules/signals/tables.ts';
import type { TrendsTables } from './modules/trends/tables.ts';
import type { WebhooksTables } from './modules/webhooks/tables.ts';
import type { PlatformTables } from './platform/db/schema.ts';

export interface Database
  extends PlatformTables,
    AccountsTables,
    SignalsTables,
    TrendsTables,
    InsightsTables,
    CrisisTables,
    WebhooksTables,
    IntegrationsTables,
    WorkflowTables,
    ContentTables,
    OrganisationsTables,
    RecommendationsTables,
    NotificationsTables,
    ExportsTables,
    ReportsTables {}

export type DB = Kysely<Database>;
/** The database or an open transaction: what store methods that may run inside one take. */
export type Executor = DB | Transaction<Database>;
