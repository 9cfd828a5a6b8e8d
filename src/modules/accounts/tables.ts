// Kysely table types of the accounts (topic interests; users and keys are platform tables) module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

export interface TopicInterestsTable {
  id: Generated<number>;
  user_id: number;
  keyword: string;
  /** The keyword normalised as trend keys are. */
  key: string;
  alert_condition_type: string;
  volume_threshold_value: number | null;
  percentage_growth_value: number | null;
  status: string;
  created_at: number;
}

export interface AccountsTables {
  topic_interests: TopicInterestsTable;
}
