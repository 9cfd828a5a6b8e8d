// The accounts module's public entry: what the composition root, the CLI and other modules may use from it.
export { InterestsService } from './interests/service.ts';
export { type AccountsModule, apiKeyRecords, createAccountsModule } from './module.ts';
export { AdminCreateUserBody, ApiKeyCreateResponseSchema, UserProfileSchema } from './schemas.ts';
export {
  AccountsService,
  ALL_PERMISSIONS,
  generateApiKey,
  type OrganisationRole,
} from './service.ts';
export { AccountsStore } from './store.ts';
export type { UserRow } from './tables.ts';
