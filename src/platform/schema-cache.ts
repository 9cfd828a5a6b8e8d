// Validators and serializers compiled once per schema for the whole process. Compiling them is most of the cost
// of building the app; a process that builds several apps (the test suite, a second instance in one process)
// reuses what an earlier one compiled. Fastify hands the compilers fresh copies of some schemas (a route's
// headers, lower-cased) on every build, so a schema seen before as another object is found by its JSON text.

/**
 * A cache of compiled functions by `context` (a string standing for everything else the compiled function
 * depends on) and schema: one entry per distinct schema the app declares, a few hundred at most.
 */
export function schemaCache<F>(): (context: string, schema: unknown, compile: () => F) => F {
  const byText = new Map<string, F>();
  const byObject = new WeakMap<object, Map<string, F>>();
  return (context, schema, compile) => {
    const isObject = typeof schema === 'object' && schema !== null;
    const known = isObject ? byObject.get(schema)?.get(context) : undefined;
    if (known !== undefined) return known;
    const text = `${context}\n${JSON.stringify(schema)}`;
    let fn = byText.get(text);
    if (fn === undefined) {
      fn = compile();
      byText.set(text, fn);
    }
    if (isObject) {
      const forSchema = byObject.get(schema) ?? new Map<string, F>();
      forSchema.set(context, fn);
      byObject.set(schema, forSchema);
    }
    return fn;
  };
}
