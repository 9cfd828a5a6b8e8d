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

export interface WebhooksDeps {
  store: WebhooksStore;
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
