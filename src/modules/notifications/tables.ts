// Kysely table types of the notifications module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

/** One notice in a user's in-app feed. */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  /** What it is about, e.g. `trend.alert.created`, `crisis.event.opened`, `api_key.expiring`. */
  type: string;
  title: string;
  message: string;
  /** JSON object: the numbers and ids behind the notice. */
  data: string;
  is_read: number;
  read_at: number | null;
  created_at: number;
}

/**
 * What each user was already notified of (`dedupe_key`, e.g. a domain event's id): at-least-once events and the
 * hourly key check never notify twice. Kept longer than the feed's own rows may be (see the retention rules).
 */
export interface NotificationDedupeTable {
  user_id: number;
  dedupe_key: string;
  created_at: number;
}

export interface NotificationsTables {
  notifications: NotificationsTable;
  notification_dedupe: NotificationDedupeTable;
}
