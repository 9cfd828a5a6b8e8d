// Response serializers (fast-json-stringify, Fastify's own) compiled once per schema for the process: they
// depend on nothing but the schema, the schemas it may reference and the serializer options.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { schemaCache } from './schema-cache.ts';

type SerializerFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildSerializer'];
type Compiler = ReturnType<NonNullable<SerializerFactory>>;

const compileWith = SerializerSelector();
const compiled = schemaCache<ReturnType<Compiler>>();

/** For the `schemaController` server option, beside `buildValidator`. */
export const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = compileWith(externalSchemas, options) as Compiler;
  const context = JSON.stringify([externalSchemas, options ?? null]);
  return (route) => compiled(context, route.schema, () => compile(route));
};
