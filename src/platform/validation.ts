// Ajv set up as the contract says: bodies are validated strictly (no coercion, unknown fields are errors,
// nothing removed); query, path and header values arrive as strings and are parsed.
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import type { FieldError } from './errors.ts';

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

const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : paramAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

type ValidatorFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildValidator'];

/**
 * For the `schemaController` server option, so every context validates by these rules: a plugin that adds its
 * own schemas rebuilds its compiler from this factory (setValidatorCompiler would not reach it). Fastify types
 * the factory after its own Ajv pool; ours ignores the pool.
 */
export const buildValidator = (() => validatorCompiler) as unknown as ValidatorFactory;

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
