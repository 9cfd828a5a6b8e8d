// Shapes by name, for code that calls the API with its own fetch (the dashboard) and so never sees the typed
// client's results: a component schema, and an operation's JSON bodies by path and method.
import type { components, paths } from './schema.js';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
/** 204 is left out: it has no body. */
type Success = 200 | 201 | 202 | 203 | 206;
type Json<C> = C extends { content: { 'application/json': infer B } } ? B : never;

/** The paths that answer `M`, so a method a path lacks is a type error rather than `never`. */
type PathWith<M extends Method> = {
  [P in keyof paths]: [Operation<P, M>] extends [never] ? never : P;
}[keyof paths];

/** A schema of the document's components: `Schema<'TrendItem'>`. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];

/** The JSON body of a 2xx answer: `ResponseBody<'/api/trends'>`, `ResponseBody<'/api/org/invites', 'post'>`. */
export type ResponseBody<P extends PathWith<M>, M extends Method = 'get'> =
  Operation<P, M> extends { responses: infer R } ? Json<R[keyof R & Success]> : never;

/** The JSON request body: `RequestBody<'/api/org/invites', 'post'>`. */
export type RequestBody<P extends PathWith<M>, M extends Method> =
  Operation<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;
