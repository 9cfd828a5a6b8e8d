// Ajv set up as the contract says: bodies are validated strictly (no coercion, unknown fields are errors,
// nothing removed); query, path and header values arrive as strings and are parsed.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import type { FieldError } from './errors.ts';
import { schemaCache } from './schema-cache.ts';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

const base: Options = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  messages: true,
};

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...base, ...options });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv({ coerceTypes: false });
const paramAjv = makeAjv({ coerceTypes: 'array' });

/** How a query or path value must be written to be read as a number: plain decimal digits, nothing else. */
const NUMERAL = { integer: /^-?\d+$/, number: /^-?\d+(?:\.\d+)?$/ } as const;
type Numeral = keyof typeof NUMERAL;

/** The numeric kind of a property schema (integer or number, alone or as every branch of a union), if any. */
function numeralOf(property: unknown): Numeral | undefined {
  if (typeof property !== 'object' || property === null) return undefined;
  const p = property as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
  if (p.type === 'integer' || p.type === 'number') return p.type;
  const branches = p.anyOf ?? p.oneOf;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const kinds = branches.map(numeralOf);
  if (kinds.some((k) => k === undefined)) return undefined;
  return kinds.includes('number') ? 'number' : 'integer';
}

/**
 * Wraps a query or path validator so numbers must be written as decimals. Ajv's coercion reads a string as a
 * number whenever JavaScript's Number() does, so `0x10`, `1e1`, `+5` and ` 5` would pass as 16, 10, 5 and 5: a
 * silent reinterpretation of what the client sent, which the contract makes a 400.
 */
function strictNumerals(schema: object, validate: ValidateFunction): ValidateFunction {
  const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  const numerals = Object.entries(properties).flatMap(([name, property]) => {
    const kind = numeralOf(property);
    return kind ? [[name, kind] as const] : [];
  });
  if (numerals.length === 0) return validate;
  const strict = ((data: unknown) => {
    if (typeof data === 'object' && data !== null) {
      const errors: ErrorObject[] = [];
      for (const [name, kind] of numerals) {
        const value = (data as Record<string, unknown>)[name];
        const values = Array.isArray(value) ? value : [value];
        if (values.some((v) => typeof v === 'string' && !NUMERAL[kind].test(v))) {
          errors.push({
            instancePath: `/${name}`,
            schemaPath: `#/properties/${name}/type`,
            keyword: 'type',
            params: { type: kind },
            message: `must be ${kind === 'integer' ? 'an integer' : 'a number'} written in decimal digits`,
          });
        }
      }
      if (errors.length > 0) {
        strict.errors = errors;
        return false;
      }
    }
    const valid = validate(data);
    strict.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return strict;
}

type Validator = ReturnType<FastifySchemaCompiler<unknown>>;
const compiled = schemaCache<Validator>();

const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  compiled(httpPart ?? '', schema, () => {
    if (httpPart === 'body') return bodyAjv.compile(schema as object) as Validator;
    const validate = paramAjv.compile(schema as object);
    return (
      httpPart === 'querystring' || httpPart === 'params'
        ? strictNumerals(schema as object, validate)
        : validate
    ) as Validator;
  });

type ValidatorFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildValidator'];

/**
 * For the `schemaController` server option, so every context validates by these rules: a plugin that adds its
 * own schemas rebuilds its compiler from this factory (setValidatorCompiler would not reach it). Fastify types
 * the factory after its own Ajv pool; ours ignores the pool.
 */
export const buildValidator = (() => validatorCompiler) as unknown as ValidatorFactory;

/** Readable messages for string patterns, by pattern source (Ajv's own says `must match pattern "\\S"`). */
const PATTERN_MESSAGES = new Map<string, string>();

/** A schema `pattern` whose failure reads as `message` (e.g. `must contain a character other than spaces`). */
export function describedPattern(pattern: string, message: string): string {
  PATTERN_MESSAGES.set(pattern, message);
  return pattern;
}

/** Turns Ajv errors into `[{path, message}]` with paths such as `body.permissions[0]`. */
export function fieldErrors(errors: ErrorObject[], part: string): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of errors) {
    let pointer = error.instancePath
      .split('/')
      .slice(1)
      .map((seg) => seg.replaceAll('~1', '/').replaceAll('~0', '~'));
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'additionalProperties') {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      pointer = [...pointer, extra];
      message = 'is not an accepted field';
    } else if (error.keyword === 'required') {
      pointer = [...pointer, (error.params as { missingProperty: string }).missingProperty];
      message = 'is required';
    } else if (error.keyword === 'pattern') {
      message = PATTERN_MESSAGES.get((error.params as { pattern: string }).pattern) ?? message;
    } else if (error.keyword === 'enum') {
      message = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    let path = part;
    for (const seg of pointer) path += /^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`;
    const key = `${path}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
  }
  return out;
}

/** A validator with the body rules (strict, no coercion), for checking items one by one. */
export function compileBodyValidator(schema: object) {
  return bodyAjv.compile(schema);
}
