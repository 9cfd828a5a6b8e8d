// Kysely table types of the recommendations module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

/** One recommendation of one user: at most one per (user_id, source_key, type). */
export interface RecommendationsTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  /** What it is about: `trend:<id>` or `crisis:<id>`. */
  source_key: string;
  source_trend_id: string | null;
  source_trend_name: string | null;
  /** The source's normalised words, space-padded (` key `, alternatives ` a | b `), for interest matching. */
  source_words: string;
  title: string;
  details: string;
  priority: string;
  /** low 1 … critical 4, for sorting. */
  priority_rank: number;
  /** new, viewed, actioned, dismissed. */
  status: string;
  user_feedback: string | null;
  /** The rule's BriefParts (JSON); the brief shown is derived from it when read. */
  brief: string;
  /** SHA-256 of the draft: a regeneration rewrites the row only when it differs. */
  fingerprint: string;
  /** The trigger's strength on its rule's scale (velocity level, severity rank, share…). */
  trigger_level: number;
  /** trigger_level when the user dismissed or actioned it: it comes back as new only above this. */
  acted_level: number | null;
  /** Until when the evidence is fresh; null without timestamped evidence. */
  fresh_until: number | null;
  /** When its rule stopped firing for the source; null while it fires. */
  lapsed_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface RecommendationsTables {
  recommendations: RecommendationsTable;
}
