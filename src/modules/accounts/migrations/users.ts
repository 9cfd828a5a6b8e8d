import { type Kysely, sql } from 'kysely';

/** Every user's id, email, name and creation time, in id order: for other modules' data migrations. */
export async function usersForMigration(
  db: Kysely<unknown>,
): Promise<{ id: number; email: string; full_name: string | null; created_at: number }[]> {
  const users = await sql<{ id: number; email: string; full_name: string | null; created_at: number }>`
    select id, email, full_name, created_at from users order by id`.execute(db);
  return users.rows;
}
