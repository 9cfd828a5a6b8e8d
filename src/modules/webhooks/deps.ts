// What the webhooks service is built with (its module's factory passes one object; each part takes its share).

import type { Actor, AuditLog } from '../../platform/audit.ts';
import type { Clock } from '../../platform/clock.ts';
import type { SecretBox } from '../../platform/crypto.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { OutboundClient } from '../../platform/outbound.ts';
import type { WebhooksStore } from './store.ts';

export type { Actor };

/** What the insights module offers, when it is there (it is optional to this module). */
interface InsightsLookup {
  latestFor?(userId: number, trendId: number): Promise<unknown>;
}

/** A trend's 24-hour lifecycle stage and sentiment category, for alert bodies (the trends module's). */
export interface TrendLabels {
  alertLabels(trendId: number): Promise<{ lifecycle_stage: string; sentiment_category: string } | undefined>;
}

/** Which users' accounts are enabled (the accounts module's): a disabled one gets nothing delivered. */
interface ActiveUsers {
  activeAmong(userIds: readonly number[]): Promise<Set<number>>;
}

export interface WebhooksDeps {
  store: WebhooksStore;
  trends: TrendLabels;
  users: ActiveUsers;
  clock: Clock;
  box: SecretBox;
  outbound: OutboundClient;
  jobs: JobQueue;
  /** Tells the local worker that jobs were committed (first attempt within a second). */
  poke: () => void;
  /** Subscription changes are audited as target type `webhook`. */
  audit: AuditLog;
  publicBaseUrl: string;
  insights?: InsightsLookup;
  random?: () => number;
}
