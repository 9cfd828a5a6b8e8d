// Account routes (profile, keys, usage, audit log), the public plan table and the operator routes.

import { actorOf } from '../../platform/audit.ts';
import { requirePrincipal } from '../../platform/auth.ts';
import type { App } from '../../platform/http.ts';
import type { PlanTable } from '../../platform/plans.ts';
import { NoContent } from '../../platform/schemas.ts';
import { planViews } from './plans.ts';
import {
  AdminCreateKeyBody,
  AdminCreateUserBody,
  AdminListUsersQuery,
  AdminUpdateUserBody,
  AdminUserListResponse,
  ApiKeyCreateResponseSchema,
  ApiKeyListResponseSchema,
  ApiUsageResponseSchema,
  AuditLogQuery,
  AuditLogResponse,
  CreateKeyBody,
  KeyIdParams,
  PlansResponse,
  RotateKeyBody,
  UserIdParams,
  UserProfileSchema,
} from './schemas.ts';
import { type AccountsService, DEFAULT_GRACE_SECONDS } from './service.ts';

interface AccountRoutesOptions {
  accounts: AccountsService;
  /** The plan table in force (defaults merged with PLANS). */
  plans: PlanTable;
}

export async function accountRoutes(
  app: App,
  { accounts, plans: table }: AccountRoutesOptions,
): Promise<void> {
  const read = { access: { permission: 'read' as const } };
  const write = { access: { permission: 'write' as const } };
  const admin = { access: { permission: 'admin' as const } };
  // PLANS is read once at start, so the table cannot change while the process runs.
  const plans = planViews(table);

  app.get(
    '/api/plans',
    {
      config: { access: 'public' },
      schema: {
        tags: ['meta'],
        summary: 'The plan table',
        description:
          "A bare array of upstream's SubscriptionPlan objects; each plan's terms appear in `features` and, " +
          'as Crestwatch additions, at the top level. Prices are per request, so `price_monthly` and ' +
          '`price_yearly` are null.',
        response: { 200: PlansResponse },
      },
    },
    async () => plans,
  );

  app.get(
    '/api/user/profile',
    {
      config: read,
      schema: { tags: ['account'], summary: 'Your profile', response: { 200: UserProfileSchema } },
    },
    // The verified key already carries the user's row, so the profile costs no query.
    async (request) => accounts.profileView(requirePrincipal(request).user),
  );

  app.get(
    '/api/user/api-keys',
    {
      config: read,
      schema: {
        tags: ['account'],
        summary: 'Your API keys (values are never shown again)',
        response: { 200: ApiKeyListResponseSchema },
      },
    },
    async (request) => ({ keys: await accounts.listKeys(requirePrincipal(request).userId) }),
  );

  app.post(
    '/api/user/api-keys',
    {
      config: write,
      schema: {
        tags: ['account'],
        summary: 'Create an API key',
        description:
          'The only response that contains `api_key`. Permissions absent or `[]` mean read and write; they can ' +
          "never exceed the calling key's (the default included). The new key expires no later than the calling " +
          'key: without `expires_at` it inherits its expiry, a later one is capped. A key in its rotation grace ' +
          'period cannot create keys (403 `api_key_rotated`).',
        body: CreateKeyBody,
        response: { 201: ApiKeyCreateResponseSchema },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const created = await accounts.createKey(
        principal.userId,
        request.body,
        actorOf(principal, request.id),
      );
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/api/user/api-keys/:key_id',
    {
      config: write,
      schema: {
        tags: ['account'],
        summary: 'Revoke an API key',
        params: KeyIdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      await accounts.revokeKey(principal.userId, request.params.key_id, actorOf(principal, request.id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/user/api-keys/:key_id/rotate',
    {
      config: { ...write, optionalBody: true },
      schema: {
        tags: ['account'],
        summary: 'Rotate an API key',
        description:
          'Creates a key with the same name, permissions and expiry (`expires_at`, capped at the calling ' +
          "key's own); the old key keeps working for the grace period. A revoked, expired or already rotated " +
          'key → 409 (`api_key_revoked`, `api_key_expired`, `api_key_rotated`); a calling key in its own grace ' +
          'period → 403 `api_key_rotated`.',
        params: KeyIdParams,
        body: RotateKeyBody,
        response: { 201: ApiKeyCreateResponseSchema },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const grace = request.body?.grace_period_seconds ?? DEFAULT_GRACE_SECONDS;
      const created = await accounts.rotateKey(
        principal.userId,
        request.params.key_id,
        grace,
        actorOf(principal, request.id),
      );
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/user/audit-log',
    {
      config: read,
      schema: {
        tags: ['account'],
        summary: 'Your audit log, newest first',
        querystring: AuditLogQuery,
        response: { 200: AuditLogResponse },
      },
    },
    async (request) =>
      accounts.auditLog(
        requirePrincipal(request).userId,
        request.query.limit ?? 20,
        request.query.offset ?? 0,
      ),
  );

  app.get(
    '/api/user/api-usage',
    {
      config: { access: { permission: 'read', quota: 'exempt' } },
      schema: {
        tags: ['account'],
        summary: 'Your API usage',
        description: 'Never counts against, and is never refused by, the daily quota.',
        response: { 200: ApiUsageResponseSchema },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      return accounts.usageReport(principal.userId, principal.plan);
    },
  );

  // ---------- operator

  app.post(
    '/api/admin/users',
    {
      config: admin,
      schema: {
        tags: ['operator'],
        summary: 'Create a user',
        body: AdminCreateUserBody,
        response: { 201: UserProfileSchema },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const user = await accounts.createUser(request.body, actorOf(principal, request.id));
      return reply.code(201).send(accounts.profileView(user));
    },
  );

  app.get(
    '/api/admin/users',
    {
      config: admin,
      schema: {
        tags: ['operator'],
        summary: 'List users',
        querystring: AdminListUsersQuery,
        response: { 200: AdminUserListResponse },
      },
    },
    async (request) => accounts.listUsers(request.query.limit ?? 20, request.query.offset ?? 0),
  );

  app.patch(
    '/api/admin/users/:id',
    {
      config: admin,
      schema: {
        tags: ['operator'],
        summary: "Change a user's plan or disable the account",
        description:
          'Sets `plan` and/or `is_active`. Disabling stops every key of the account at once (403 ' +
          '`account_disabled`); an operator cannot disable its own account (409 `cannot_disable_self`).',
        params: UserIdParams,
        body: AdminUpdateUserBody,
        response: { 200: UserProfileSchema },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      return accounts.updateUser(request.params.id, request.body, actorOf(principal, request.id));
    },
  );

  app.post(
    '/api/admin/users/:id/api-keys',
    {
      config: admin,
      schema: {
        tags: ['operator'],
        summary: 'Create an API key for a user',
        params: UserIdParams,
        body: AdminCreateKeyBody,
        response: { 201: ApiKeyCreateResponseSchema },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      await accounts.profile(request.params.id);
      const created = await accounts.createKey(
        request.params.id,
        request.body,
        actorOf(principal, request.id),
      );
      return reply.code(201).send(created);
    },
  );
}
