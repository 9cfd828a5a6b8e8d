// `crestwatch users create`: a user on a plan, owner of an organisation of their own.
import { AdminCreateUserBody } from '../../modules/accounts/index.ts';
import { isPlanName, PLAN_NAMES } from '../../platform/plans.ts';
import { compileBodyValidator, fieldErrors } from '../../platform/validation.ts';
import { withAccounts } from '../accounts.ts';
import { type CommandInput, UsageError, unknownCommand } from '../command.ts';

export const usage = '  users create --email E --plan P [--name N]';

// The operator route's body rules (POST /api/admin/users): the command makes no user the route would refuse.
const validateUser = compileBodyValidator(AdminCreateUserBody);
const OPTIONS: Record<string, string> = { email: '--email', full_name: '--name', plan: '--plan' };

export async function run({ config, values, positionals }: CommandInput): Promise<void> {
  if (positionals[1] !== 'create') throw unknownCommand(positionals);
  if (!values.email) throw new UsageError('users create needs --email');
  const plan = values.plan ?? 'developer';
  if (!isPlanName(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  const input = { email: values.email.trim(), full_name: values.name ?? null, plan };
  if (!validateUser(input)) {
    const problems = fieldErrors(validateUser.errors ?? [], '').map(
      (e) => `${OPTIONS[e.path.replace(/^\./, '')] ?? e.path} ${e.message}`,
    );
    throw new UsageError(problems.join('; '));
  }
  const user = await withAccounts(config, (accounts) => accounts.createUser(input, null));
  console.log(
    `Created user ${user.id} <${user.email}> on the ${user.plan} plan, owner of an organisation of their own.`,
  );
}
