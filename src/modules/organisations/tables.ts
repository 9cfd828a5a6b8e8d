// Kysely table types of the organisations module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.
import type { Generated } from 'kysely';

export interface OrganisationsTable {
  id: Generated<number>;
  /** The founding user's name or email; not shown by any route yet. */
  name: string;
  created_at: number;
}

export interface OrganisationMembersTable {
  id: Generated<number>;
  organisation_id: number;
  /** Unique: a user belongs to exactly one organisation. */
  user_id: number;
  /** owner, admin or member (copied to `users.organization_role` in the same transaction). */
  role: string;
  joined_at: number;
}

export interface OrganisationInvitesTable {
  id: Generated<number>;
  organisation_id: number;
  /** Lower-cased. */
  email: string;
  role: string;
  /** SHA-256 hex of the one-time token; the token itself is never stored. */
  token_hash: string;
  invited_by: number;
  /** pending, accepted, revoked or expired (a pending invite past `expires_at` is expired when read). */
  status: string;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_user_id: number | null;
  revoked_at: number | null;
}

export interface OrganisationsTables {
  organisations: OrganisationsTable;
  organisation_members: OrganisationMembersTable;
  organisation_invites: OrganisationInvitesTable;
}
