// Custom reports over trends; session info; the public demo signals.
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';

export interface ReportsDeps {
  config: Config;
  clock: Clock;
  db: DB;
}

export class ReportsService {
  constructor(private readonly deps: ReportsDeps) {}
}
