// The accounts module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { users } from './0001.1_users.ts';
import { topicInterests } from './0004.2_topic_interests.ts';
import { ownerRole } from './0013.2_owner_role.ts';
import { interestKeyIndex } from './0021.1_interest_key_index.ts';
import { leftOrganisation } from './0022_left_organisation.ts';
import { foldInterestKeys } from './0023.2_fold_interest_keys.ts';

export const accountsMigrations: MigrationSet = {
  owner: 'accounts',
  migrations: {
    '0001.1_users': users,
    '0004.2_topic_interests': topicInterests,
    '0013.2_owner_role': ownerRole,
    '0021.1_interest_key_index': interestKeyIndex,
    '0022_left_organisation': leftOrganisation,
    '0023.2_fold_interest_keys': foldInterestKeys,
  },
};
export { usersForMigration } from './users.ts';
