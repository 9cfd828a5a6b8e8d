// `crestwatch keys create|list|revoke`: a user's API keys, managed as the operator.
import { type AccountsStore, ALL_PERMISSIONS } from '../../modules/accounts/index.ts';
import type { Permission } from '../../platform/auth.ts';
import { OPERATOR, withAccounts } from '../accounts.ts';
import { type CliValues, type CommandInput, UsageError, unknownCommand } from '../command.ts';

export const usage = [
  '  keys create (--user ID | --email E) --name N [--permissions read,write,ingest,admin] [--expires-at ISO]',
  '  keys list (--user ID | --email E)',
  '  keys revoke --id KEY_ID',
].join('\n');

export async function run(input: CommandInput): Promise<void> {
  switch (input.positionals[1]) {
    case 'create':
      return create(input);
    case 'list':
      return list(input);
    case 'revoke':
      return revoke(input);
    default:
      throw unknownCommand(input.positionals);
  }
}

async function resolveUser(store: AccountsStore, values: CliValues): Promise<number> {
  if (values.user) {
    if (!/^\d+$/.test(values.user)) throw new UsageError('--user must be a numeric user id');
    const user = await store.findUserById(Number(values.user));
    if (!user) throw new UsageError(`no user with id ${values.user}`);
    return user.id;
  }
  if (values.email) {
    const user = await store.findUserByEmail(values.email.toLowerCase());
    if (!user) throw new UsageError(`no user with email ${values.email}`);
    return user.id;
  }
  throw new UsageError('name the user with --user ID or --email E');
}

async function create({ config, values }: CommandInput): Promise<void> {
  if (!values.name) throw new UsageError('keys create needs --name');
  // As in the API, an empty list means the defaults.
  const permissions = values.permissions
    ?.split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0) as Permission[] | undefined;
  for (const p of permissions ?? []) {
    if (!ALL_PERMISSIONS.includes(p))
      throw new UsageError(`unknown permission ${p} (use ${ALL_PERMISSIONS.join(', ')})`);
  }
  const created = await withAccounts(config, async (accounts, store) => {
    const userId = await resolveUser(store, values);
    return accounts.createKey(
      userId,
      { name: values.name!, permissions, expires_at: values['expires-at'] },
      { ...OPERATOR, userId },
    );
  });
  console.log(`Created key ${created.id} (${created.permissions.join(', ')}). It is shown only now:`);
  console.log(created.api_key);
}

async function list({ config, values }: CommandInput): Promise<void> {
  const keys = await withAccounts(config, async (accounts, store) =>
    accounts.listKeys(await resolveUser(store, values)),
  );
  if (keys.length === 0) console.log('No keys.');
  for (const key of keys) {
    console.log(
      [
        key.id,
        key.prefix,
        key.name,
        key.permissions.join(','),
        key.is_active ? 'active' : 'inactive',
        key.last_used_at ?? 'never used',
      ].join('\t'),
    );
  }
}

async function revoke({ config, values }: CommandInput): Promise<void> {
  if (!values.id || !/^\d+$/.test(values.id)) throw new UsageError('keys revoke needs --id KEY_ID');
  const keyId = Number(values.id);
  await withAccounts(config, async (accounts, store) => {
    const userId = await store.keyOwnerId(keyId);
    if (userId === undefined) throw new UsageError(`no key with id ${values.id}`);
    await accounts.revokeKey(userId, keyId, { ...OPERATOR, userId });
  });
  console.log(`Revoked key ${values.id}.`);
}
