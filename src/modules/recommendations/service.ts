// Recommendations with decision briefs, generated per user by a rule engine from what Crestwatch knows.
import type { Config } from '../../config.ts';
import type { DB } from '../../database.ts';
import type { Clock } from '../../platform/clock.ts';

export interface RecommendationsDeps {
  config: Config;
  clock: Clock;
  db: DB;
}

export class RecommendationsService {
  constructor(private readonly deps: RecommendationsDeps) {}
}
