// The module shape's parts: Listeners (a failing listener is reported and stops nobody), Hooks (awaited in
// order, a failure is the caller's), routes() binding a plugin to its options, and the fixed route order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import type { App } from '../../src/platform/http.ts';
import { Hooks, Listeners, type RoutePlugin, routes, routesInOrder } from '../../src/platform/module.ts';

describe('Listeners', () => {
  test('every listener is told in order; one that throws or rejects is reported and the others still run', async () => {
    const errors: unknown[] = [];
    const listeners = new Listeners<number>((error) => errors.push(error));
    const seen: string[] = [];
    listeners.subscribe((n) => seen.push(`a${n}`));
    listeners.subscribe(() => {
      throw new Error('thrown');
    });
    listeners.subscribe(async () => {
      throw new Error('rejected');
    });
    listeners.subscribe((n) => seen.push(`d${n}`));
    assert.doesNotThrow(() => listeners.notify(7));
    assert.deepEqual(seen, ['a7', 'd7']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ['thrown', 'rejected'],
    );
  });

  test('notify does not wait for a listener; unsubscribing stops one', async () => {
    const listeners = new Listeners((error) => assert.fail(String(error)));
    let told = 0;
    let finished = false;
    const off = listeners.subscribe(() => {
      told++;
    });
    listeners.subscribe(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = true;
    });
    listeners.notify();
    assert.equal(finished, false, 'notify returned before the slow listener ended');
    off();
    listeners.notify();
    assert.equal(told, 1);
  });
});

describe('Hooks', () => {
  test('run in the order added, each awaited; the first failure is thrown and stops the rest', async () => {
    const hooks = new Hooks<string>();
    const ran: string[] = [];
    hooks.add(async (v) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      ran.push(`1:${v}`);
    });
    hooks.add(async (v) => {
      ran.push(`2:${v}`);
    });
    await hooks.run('x');
    assert.deepEqual(ran, ['1:x', '2:x']);

    hooks.add(async () => {
      throw new Error('step failed');
    });
    hooks.add(async (v) => {
      ran.push(`4:${v}`);
    });
    await assert.rejects(hooks.run('y'), /step failed/);
    assert.deepEqual(ran, ['1:x', '2:x', '1:y', '2:y']);
  });
});

describe('routes and their order', () => {
  test('routes() registers the plugin with its options; options as a function are made at registration', async () => {
    const app = Fastify() as unknown as App;
    let made = 0;
    const plugin = async (scope: App, options: { path: string }) => {
      scope.get(options.path, async () => ({ ok: true }));
    };
    const bound = routes(plugin, { path: '/a' });
    const lazy = routes(plugin, () => {
      made++;
      return { path: '/b' };
    });
    assert.equal(made, 0);
    await bound.register(app);
    await lazy.register(app);
    assert.equal(made, 1);
    assert.equal((await app.inject({ url: '/a' })).statusCode, 200);
    assert.equal((await app.inject({ url: '/b' })).statusCode, 200);
    await app.close();
  });

  test('routesInOrder follows the order, and refuses a route left out, named but absent, or named twice', () => {
    const plugin = (): RoutePlugin => ({ register: async () => undefined });
    const map = new Map([
      ['a.x', plugin()],
      ['b.y', plugin()],
    ]);
    assert.deepEqual(routesInOrder(map, ['b.y', 'a.x']), [map.get('b.y'), map.get('a.x')]);
    assert.throws(() => routesInOrder(map, ['a.x']), /missing from the order: b\.y/);
    assert.throws(() => routesInOrder(map, ['a.x', 'b.y', 'c.z']), /no module has them: c\.z/);
    assert.throws(() => routesInOrder(map, ['a.x', 'b.y', 'a.x']), /named twice: a\.x/);
  });
});
