// The accounts module: users, API keys and their usage, topic interests.
import type { DB } from '../../database.ts';
import type { AuditLog } from '../../platform/audit.ts';
import type { KeyCache } from '../../platform/auth.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Dialect } from '../../platform/db/index.ts';
import { type Module, routes } from '../../platform/module.ts';
import type { PlanTable } from '../../platform/plans.ts';
import type { RateLimits } from '../../platform/ratelimit.ts';
import type { UsageCounter } from '../../platform/usage.ts';
import { interestRoutes } from './interests/routes.ts';
import { InterestsService } from './interests/service.ts';
import { InterestsStore } from './interests/store.ts';
import { accountRoutes } from './routes.ts';
import { AccountsService } from './service.ts';
import { AccountsStore } from './store.ts';

interface AccountsModuleDeps {
  db: DB;
  dialect: Dialect;
  clock: Clock;
  plans: PlanTable;
  keyCache: KeyCache;
  limits: RateLimits;
  usage: UsageCounter;
  audit: AuditLog;
  /** A new user's organisation and membership, written in the user's transaction (organisationMemberships). */
  memberships: ConstructorParameters<typeof AccountsService>[1]['memberships'];
}

export type AccountsModule = Module<
  {
    accounts: AccountsService;
    interests: InterestsService;
    /** Where the auth plugin looks keys up. */
    keys: AccountsStore;
  },
  'accounts' | 'interests'
>;

/**
 * What the platform's usage counter and idempotency store read and write of API keys (this module's table),
 * available before the module is built since the module itself needs the usage counter.
 */
export function apiKeyRecords(db: DB, dialect: Dialect): Pick<AccountsStore, 'keyGrant' | 'markKeysUsed'> {
  return new AccountsStore(db, dialect);
}

export function createAccountsModule(deps: AccountsModuleDeps): AccountsModule {
  const { db, clock, plans } = deps;
  const keys = new AccountsStore(db, deps.dialect);
  const accounts = new AccountsService(keys, {
    clock,
    plans,
    cache: deps.keyCache,
    limits: deps.limits,
    usage: deps.usage,
    audit: deps.audit,
    memberships: deps.memberships,
  });
  const interests = new InterestsService(new InterestsStore(db), clock);
  return {
    api: { accounts, interests, keys },
    routes: {
      accounts: routes(accountRoutes, { accounts, plans }),
      interests: routes(interestRoutes, { interests }),
    },
  };
}
