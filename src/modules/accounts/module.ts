// The accounts module: users, API keys and their usage, topic interests.
import type { DB } from '../../database.ts';
import type { AuditLog } from '../../platform/audit.ts';
import type { KeyCache } from '../../platform/auth.ts';
import type { Clock } from '../../platform/clock.ts';
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
  clock: Clock;
  plans: PlanTable;
  keyCache: KeyCache;
  limits: RateLimits;
  usage: UsageCounter;
  audit: AuditLog;
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

export function createAccountsModule(deps: AccountsModuleDeps): AccountsModule {
  const { db, clock, plans } = deps;
  const keys = new AccountsStore(db);
  const accounts = new AccountsService(keys, {
    clock,
    plans,
    cache: deps.keyCache,
    limits: deps.limits,
    usage: deps.usage,
    audit: deps.audit,
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
