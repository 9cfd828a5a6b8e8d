// Scheduled exports of trends to S3-compatible storage (aws, gcp) or e-mail, with run history.
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';

export interface ExportsDeps {
  config: Config;
  clock: Clock;
  db: DB;
}

export class ExportsService {
  constructor(private readonly deps: ExportsDeps) {}

  /** Queues the runs that are due (run every minute). */
  async scheduleDue(): Promise<void> {}
}
