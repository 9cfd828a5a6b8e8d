// The platform's own migrations, by name (the runner orders every owner's together: migrator.ts).
import type { MigrationSet } from '../migrator.ts';
import { foundation } from './0001.2_foundation.ts';
import { idempotencyKeyOwner } from './0019_idempotency_key_owner.ts';
import { leases } from './0020.1_leases.ts';

export const platformMigrations: MigrationSet = {
  owner: 'platform',
  migrations: {
    '0001.2_foundation': foundation,
    '0019_idempotency_key_owner': idempotencyKeyOwner,
    '0020.1_leases': leases,
  },
};
