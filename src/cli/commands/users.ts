// `crestwatch users create`: a user on a plan, owner of an organisation of their own.
import { isPlanName, PLAN_NAMES } from '../../platform/plans.ts';
import { withAccounts } from '../accounts.ts';
import { type CommandInput, UsageError, unknownCommand } from '../command.ts';

export const usage = '  users create --email E --plan P [--name N]';

export async function run({ config, values, positionals }: CommandInput): Promise<void> {
  if (positionals[1] !== 'create') throw unknownCommand(positionals);
  if (!values.email) throw new UsageError('users create needs --email');
  const plan = values.plan ?? 'developer';
  if (!isPlanName(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  const user = await withAccounts(config, (accounts) =>
    accounts.createUser({ email: values.email!, full_name: values.name ?? null, plan }, null),
  );
  console.log(
    `Created user ${user.id} <${user.email}> on the ${user.plan} plan, owner of an organisation of their own.`,
  );
}
