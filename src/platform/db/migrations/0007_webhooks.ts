import type { Kysely } from 'kysely';
import type { Dialect } from './helpers.ts';

// Webhook subscriptions, deliveries and executions (issue 6).
export function webhooks(_dialect: Dialect) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  };
}
