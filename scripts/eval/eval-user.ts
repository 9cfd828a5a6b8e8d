// A user row the evaluations create straight in the database (enterprise plan, no key: they call services).
import type { App } from '../../src/platform/http.ts';

export async function insertEvalUser(app: App, email: string, now: number): Promise<{ id: number }> {
  return app.services.db
    .insertInto('users')
    .values({
      email,
      full_name: null,
      is_active: 1,
      organization_role: 'member',
      plan: 'enterprise',
      subscription_status: 'active',
      current_period_end: null,
      cancel_at_period_end: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}
