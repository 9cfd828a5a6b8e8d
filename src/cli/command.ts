// What every CLI command gets and may throw.
import type { Config } from '../config.ts';

/** A mistake in the command line: reported with the usage text, exit code 2. */
export class UsageError extends Error {}

/** The options `crestwatch` accepts (one table for every command; each reads those it needs). */
export interface CliValues {
  email?: string;
  plan?: string;
  name?: string;
  user?: string;
  permissions?: string;
  'expires-at'?: string;
  id?: string;
  batch?: string;
  process?: boolean;
  demo?: boolean;
  hours?: string;
  seed?: string;
  'dry-run'?: boolean;
  help?: boolean;
}

export interface CommandInput {
  config: Config;
  values: CliValues;
  /** The words of the command line, the command's own name first. */
  positionals: string[];
  /** The environment, for inputs that are not service configuration (OLD_SECRET_KEY). */
  env: Record<string, string | undefined>;
}

export function unknownCommand(positionals: string[]): UsageError {
  return new UsageError(`unknown command: ${positionals.join(' ')}`);
}

/** A whole-number option between `min` and `max`; `fallback` when absent. */
export function integerOption(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max} (got ${value})`);
  }
  return Number(value);
}
