// Kysely table types of the insights module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

/** One stored AIInsight of one user for one trend. */
export interface AiInsightsTable {
  id: Generated<number>;
  user_id: number;
  trend_id: number;
  /** The AIInsight JSON without usage_count/usage_limit (those are computed when read). */
  content: string;
  trend_name: string;
  sentiment_category: string;
  topic_category: string;
  /** Lower-cased search text: `\n`-separated key themes, with leading and trailing `\n`. */
  themes_text: string;
  /** Lower-cased search text: audience keywords (interest + ad targeting keywords), `\n`-separated. */
  audience_text: string;
  llm_model_used: string;
  /** 1 for the user's newest insight of the trend. */
  is_latest: number;
  generated_at: number;
}

/** A generate or analyze request; its job lives in `jobs`, this row is what the status route shows. */
export interface InsightTasksTable {
  /** A random string id (task ids are strings). */
  id: string;
  user_id: number;
  trend_id: number;
  kind: string;
  status: string;
  error: string | null;
  /** 1 when it counted against the monthly generation limit. */
  charged: number;
  insight_id: number | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface InsightsTables {
  ai_insights: AiInsightsTable;
  insight_tasks: InsightTasksTable;
}
