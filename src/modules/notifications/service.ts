// The in-app notification feed, fed by domain events; and the dashboard overview.
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';

export interface NotificationsDeps {
  config: Config;
  clock: Clock;
  db: DB;
}

export class NotificationsService {
  constructor(private readonly deps: NotificationsDeps) {}

  /** Notices for API keys about to expire (run hourly). */
  async checkExpiringKeys(): Promise<void> {}
}
