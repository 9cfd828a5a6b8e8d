import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ApiError } from '../../src/platform/errors.ts';
import { guardedLookup, OutboundClient, OutboundError, OutboundPolicy } from '../../src/platform/outbound.ts';

describe('outbound SSRF guard', () => {
  const policy = new OutboundPolicy([]);

  test('refuses private, loopback, link-local, unique-local and mapped addresses', () => {
    for (const address of [
      '10.0.0.1',
      '127.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.10.1',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd12::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ]) {
      assert.ok(policy.refusal(address), `${address} should be refused`);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1::1', '8.8.8.8']) {
      assert.equal(policy.refusal(address), null, `${address} should be allowed`);
    }
  });

  test('IPv4 carried by 6to4 and Teredo addresses is checked as that IPv4 address', () => {
    for (const address of [
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:a00:1::', // 10.0.0.1
      '2002:c0a8:101:0:0:0:0:1', // 192.168.1.1
      '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client ~80ff:fffe = 127.0.0.1
      '2001:0:a00:1::1', // Teredo server 10.0.0.1
      '64:ff9b:1::a00:1', // local-use NAT64
    ]) {
      assert.match(String(policy.refusal(address)), /private, loopback/, `${address} should be refused`);
    }
    assert.match(String(policy.refusal('2002:a9fe:a9fe::1')), /metadata/);
    assert.match(String(new OutboundPolicy(['169.254.0.0/16']).refusal('2002:a9fe:a9fe::1')), /metadata/);
    // Public IPv4 inside: allowed, as the IPv4 address itself would be.
    assert.equal(policy.refusal('2002:5db8:d822::1'), null); // 93.184.216.34
    assert.equal(policy.refusal('2001:0:4136:e378:8000:63bf:a247:27dd'), null); // client 93.184.216.34
    assert.equal(new OutboundPolicy(['10.0.0.0/8']).refusal('2002:a00:1::'), null);
  });

  test('the allowlist opens private ranges but never cloud metadata', () => {
    const open = new OutboundPolicy(['127.0.0.0/8', '10.0.0.0/8', '169.254.0.0/16', 'fd00::/8']);
    assert.equal(open.refusal('127.0.0.1'), null);
    assert.equal(open.refusal('10.1.2.3'), null);
    assert.match(String(open.refusal('169.254.169.254')), /metadata/);
    assert.match(String(open.refusal('fd00:ec2::254')), /metadata/);
  });

  test('URLs must be absolute http(s) without credentials; refusals are 400s naming the field', async () => {
    for (const bad of [
      'ftp://example.com/',
      'not a url',
      'http://user:pw@example.com/',
      'file:///etc/passwd',
    ]) {
      assert.throws(
        () => policy.parse(bad, 'body.url'),
        (e: unknown) => e instanceof ApiError && e.status === 400,
      );
    }
    await assert.rejects(policy.assertAllowed('http://10.0.0.1/', 'body.url'), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 400);
      assert.equal(e.code, 'destination_not_allowed');
      assert.equal(e.extra.errors?.[0]?.path, 'body.url');
      return true;
    });
    await assert.rejects(policy.assertAllowed('http://169.254.169.254/latest/meta-data', 'body.url'));
    await assert.rejects(policy.assertAllowed('http://localhost:9/', 'body.url'));
  });
});

describe('outbound client', () => {
  let server: http.Server;
  let port: number;
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/' });
        return res.end();
      }
      if (req.url === '/big') {
        res.writeHead(200);
        return res.end('x'.repeat(200_000));
      }
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'text/plain' });
        res.end(`${req.method} ${body}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('refuses loopback by name and by literal unless allowlisted', async () => {
    const strict = new OutboundClient({ allowlist: [] });
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`]) {
      await assert.rejects(
        strict.request(url),
        (e: unknown) => e instanceof OutboundError && e.kind === 'refused',
      );
    }
    await strict.close();
  });

  test('posts to an allowlisted destination, does not follow redirects and bounds the answer', async () => {
    const client = new OutboundClient({ allowlist: ['127.0.0.0/8'] });
    const res = await client.request(`http://localhost:${port}/echo`, { method: 'POST', body: 'hello' });
    assert.equal(res.status, 201);
    assert.equal(res.body, 'POST hello');
    const redirect = await client.request(`http://127.0.0.1:${port}/redirect`);
    assert.equal(redirect.status, 302);
    const big = await client.request(`http://127.0.0.1:${port}/big`, { maxBodyBytes: 1000 });
    assert.equal(big.body.length, 1000);
    await assert.rejects(
      client.request(`http://127.0.0.1:${port}/slow`, { timeoutMs: 200 }),
      (e: unknown) => e instanceof OutboundError && e.kind === 'timeout',
    );
    await assert.rejects(
      client.request('http://127.0.0.1:1/', { timeoutMs: 2000 }),
      (e: unknown) => e instanceof OutboundError && e.kind === 'network',
    );
    await client.close();
  });
});

describe('guarded lookup (for agents and sockets a library opens itself)', () => {
  const resolve = (policy: OutboundPolicy, host: string, all: boolean) =>
    new Promise<unknown>((ok, fail) =>
      guardedLookup(policy)(host, { all }, (error, address, family) =>
        error ? fail(error) : ok(all ? address : { address, family }),
      ),
    );

  test('refuses a name resolving to a private address unless allowlisted; answers one address or all', async () => {
    await assert.rejects(
      resolve(new OutboundPolicy([]), 'localhost', false),
      (e: unknown) =>
        e instanceof OutboundError && e.kind === 'refused' && /localhost resolves to/.test(e.message),
    );
    const open = new OutboundPolicy(['127.0.0.0/8', '::1/128']);
    const one = (await resolve(open, 'localhost', false)) as { address: string; family: number };
    assert.ok(['127.0.0.1', '::1'].includes(one.address), one.address);
    assert.ok([4, 6].includes(one.family));
    const all = (await resolve(open, 'localhost', true)) as { address: string }[];
    assert.ok(Array.isArray(all) && all.length > 0);
  });

  test('a socket connecting through it is refused before any connection is made', async () => {
    const net = await import('node:net');
    const error = await new Promise<Error>((done) => {
      const socket = net.connect({
        host: 'localhost',
        port: 9,
        lookup: guardedLookup(new OutboundPolicy([])),
      });
      socket.on('error', done);
      socket.on('connect', () => done(new Error('connected')));
    });
    assert.ok(error instanceof OutboundError, String(error));
  });
});

describe('outbound client: connections and limits per destination', () => {
  /** A server that counts its connections and the requests it holds open; `answer()` releases them all. */
  async function holdingServer() {
    const held: http.ServerResponse[] = [];
    const state = { connections: 0, open: 0, peak: 0, received: 0 };
    const server = http.createServer((req, res) => {
      req.resume();
      state.received++;
      state.open++;
      state.peak = Math.max(state.peak, state.open);
      res.on('finish', () => state.open--);
      held.push(res);
    });
    server.on('connection', () => state.connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      state,
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      answer() {
        for (const res of held.splice(0)) res.end('ok');
      },
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  test('requests to one origin reuse at most perOriginLimit keep-alive connections', async () => {
    const server = await holdingServer();
    const client = new OutboundClient({ allowlist: ['127.0.0.0/8'], perOriginLimit: 3 });
    try {
      // The server answers whatever it holds every few ms, so requests queue behind the limit, then flow.
      const answering = setInterval(() => server.answer(), 5);
      const results = await Promise.all(
        Array.from({ length: 30 }, () => client.request(server.url, { method: 'POST', body: 'x' })),
      );
      clearInterval(answering);
      assert.ok(results.every((r) => r.status === 200));
      assert.equal(server.state.received, 30);
      assert.equal(server.state.peak, 3, 'never more than the limit in flight');
      assert.ok(server.state.connections <= 3, `${server.state.connections} connections for 30 requests`);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test('a full origin that does not answer refuses fast with queueTimeoutMs; other origins are served', async () => {
    const stuck = await holdingServer();
    const other = await holdingServer();
    const client = new OutboundClient({ allowlist: ['127.0.0.0/8'], perOriginLimit: 2 });
    try {
      const hanging = [1, 2].map(() => client.request(stuck.url, { timeoutMs: 5000 }).catch((e) => e));
      await waitUntil(() => stuck.state.open === 2);
      // A slot is not expected soon: refused at once, nothing sent.
      await new Promise((r) => setTimeout(r, 300));
      const t0 = Date.now();
      await assert.rejects(
        client.request(stuck.url, { queueTimeoutMs: 200 }),
        (e: unknown) => e instanceof OutboundError && e.kind === 'busy' && (e.retryAfterMs ?? 0) >= 300,
      );
      assert.ok(Date.now() - t0 < 150, `refused after ${Date.now() - t0} ms`);
      assert.equal(stuck.state.received, 2);
      // Another origin has its own slots.
      const served = client.request(other.url, { queueTimeoutMs: 0 });
      await waitUntil(() => other.state.open === 1);
      other.answer();
      assert.equal((await served).status, 200);
      // Without queueTimeoutMs a request waits for the slot and goes out once one frees.
      const waiting = client.request(stuck.url, { timeoutMs: 5000 });
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(stuck.state.received, 2, 'waits while the origin is full');
      stuck.answer();
      await waitUntil(() => stuck.state.received === 3);
      stuck.answer();
      assert.equal((await waiting).status, 200);
      for (const result of await Promise.all(hanging)) assert.equal(result.status, 200);
    } finally {
      await client.close();
      await stuck.close();
      await other.close();
    }
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}
