// The one shape every feature module has (docs/architecture.md, "Module shape and wiring"): its index.ts
// exports `create<Name>Module(deps)`, which builds the module's stores and services, registers its own job and
// event handlers, and returns `{ api, routes }`. `api` is what other modules and the composition root use;
// `routes` are its route plugins bound to their options, registered by app.ts in one fixed order.
// Modules talk back to earlier ones only through what those publish: `Listeners` (told, errors reported) and
// `Hooks` (awaited steps whose failure is the caller's).
import type { App } from './http.ts';

/** A route plugin bound to its options: `register(app)` is `app.register(plugin, options)`. */
export interface RoutePlugin {
  register(app: App): Promise<void>;
}

/** What a module's `create<Name>Module` returns. */
export interface Module<Api, RouteName extends string = never> {
  api: Api;
  routes: Record<RouteName, RoutePlugin>;
}

type RoutesFunction<O> = (app: App, options: O) => Promise<void>;

/**
 * Binds a route plugin to its options. Options given as a function are made when the plugin is registered
 * (the MCP tools read the routes registered before theirs).
 */
export function routes(plugin: (app: App) => Promise<void>): RoutePlugin;
export function routes<O extends object>(plugin: RoutesFunction<O>, options: O | (() => O)): RoutePlugin;
export function routes<O extends object>(plugin: RoutesFunction<O>, options?: O | (() => O)): RoutePlugin {
  return {
    async register(app) {
      const plugged = plugin as RoutesFunction<object>;
      if (options === undefined) await app.register(plugged);
      else await app.register(plugged, typeof options === 'function' ? options() : options);
    },
  };
}

type Listener<T> = (value: T) => unknown;

/**
 * Listeners of something a module publishes (signals stored, snapshots written). `notify` returns at once: a
 * listener's failure, thrown or rejected, is reported to `onError` and never stops the others or the publisher.
 */
export class Listeners<T = void> {
  private readonly listeners: Listener<T>[] = [];

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Adds a listener; the returned function removes it. */
  subscribe(listener: Listener<T>): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  notify(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        const result = listener(value);
        if (result instanceof Promise) result.catch(this.onError);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}

/**
 * Steps another module adds to a publisher's own work (crisis detection after each engine pass, hazard
 * observations a source polled): run in the order added, each awaited; the first failure ends the run and is
 * the publisher's failure, as if the step were its own code.
 */
export class Hooks<T = void> {
  private readonly hooks: ((value: T) => Promise<unknown>)[] = [];

  add(hook: (value: T) => Promise<unknown>): void {
    this.hooks.push(hook);
  }

  async run(value: T): Promise<void> {
    for (const hook of this.hooks) await hook(value);
  }
}

/**
 * The route plugins of `routes` (keyed `<module>.<name>`) in the order `order` names them. Throws when the order
 * names a route no module has or leaves one out: the order is the OpenAPI document's, so none is guessed.
 */
export function routesInOrder(
  routes: ReadonlyMap<string, RoutePlugin>,
  order: readonly string[],
): RoutePlugin[] {
  const missing = order.filter((key) => !routes.has(key));
  const unordered = [...routes.keys()].filter((key) => !order.includes(key));
  const repeated = order.filter((key, i) => order.indexOf(key) !== i);
  if (missing.length > 0 || unordered.length > 0 || repeated.length > 0) {
    const problems = [
      missing.length > 0 ? `named in the order but no module has them: ${missing.join(', ')}` : '',
      unordered.length > 0 ? `missing from the order: ${unordered.join(', ')}` : '',
      repeated.length > 0 ? `named twice: ${repeated.join(', ')}` : '',
    ];
    throw new Error(`Route order and modules disagree; ${problems.filter(Boolean).join('; ')}.`);
  }
  return order.map((key) => routes.get(key)!);
}
