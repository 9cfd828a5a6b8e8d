// Schema building blocks shared by every module.
import Type, { type Static, type TProperties, type TSchema } from 'typebox';

/** A request body object: unknown fields are errors. */
export const StrictObject = <T extends TProperties>(properties: T, options: Record<string, unknown> = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** A free-form object whose keys the serialiser must keep. */
export const FreeForm = (options: Record<string, unknown> = {}) =>
  Type.Object({}, { additionalProperties: true, ...options });

/**
 * `T | null`. Scalars become `type: [T, "null"]` rather than `anyOf`: the same JSON Schema meaning, and far
 * cheaper for the response serialiser.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const raw = schema as unknown as Record<string, unknown>;
  if (typeof raw.type === 'string' && raw.type !== 'object' && raw.type !== 'array') {
    const copy: Record<string, unknown> = { ...raw, type: [raw.type, 'null'] };
    if (Array.isArray(raw.enum)) copy.enum = [...raw.enum, null];
    return Type.Unsafe<Static<T> | null>(copy);
  }
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
}

export const DateTime = (options: Record<string, unknown> = {}) =>
  Type.String({ format: 'date-time', examples: ['2026-11-21T10:00:00Z'], ...options });

export const DateOnly = (options: Record<string, unknown> = {}) =>
  Type.String({ format: 'date', examples: ['2026-11-21'], ...options });

export const IdParam = (name: string, description: string) =>
  Type.Object(
    { [name]: Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991, description }) },
    {
      additionalProperties: false,
    },
  );

export const Pagination = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1–100).' }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0, description: 'Items to skip.' }),
  ),
};

export const PageMeta = Type.Object({
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'A URI naming the problem type.' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String({ description: 'A readable sentence saying what went wrong.' }),
    code: Type.String({ description: 'A stable machine-readable code, e.g. `validation_failed`.' }),
    request_id: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), {
        description: 'The failing fields, for validation errors.',
      }),
    ),
  },
  { $id: 'Problem', title: 'Problem', description: 'RFC 9457 problem details.' },
);

/** The `meta` of paged lists (trends, blog posts): shared by modules, so registered once at the root. */
const PaginationMetaSchema = Type.Object(
  {
    total: Nullable(Type.Integer({ default: 0 })),
    limit: Nullable(Type.Integer({ default: 20 })),
    offset: Nullable(Type.Integer({ default: 0 })),
    period: Nullable(Type.String({ description: 'The period applied, or `custom` for a date range.' })),
    sort_by: Nullable(Type.String()),
    order: Nullable(Type.String()),
    search: Nullable(Type.String()),
    category: Nullable(Type.String()),
    start_date: Nullable(DateOnly()),
    end_date: Nullable(DateOnly()),
  },
  { $id: 'PaginationMeta', title: 'PaginationMeta' },
);

/** Schemas referenced by `$ref` from more than one module. */
export const SHARED_SCHEMAS = [ProblemSchema, PaginationMetaSchema];

export const NoContent = Type.Null({ description: 'No content.' });
