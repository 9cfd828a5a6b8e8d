import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type WebSocket, WebSocketServer } from 'ws';
import { blueskySource } from '../../../../src/modules/signals/sources/bluesky.ts';
import {
  SourceError,
  type SourceSignal,
  type StreamContext,
} from '../../../../src/modules/signals/sources/types.ts';
import { assertContract } from './stand-in.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');
const T0 = NOW * 1000 - 5_000_000; // Jetstream time_us, five seconds before NOW
const DID = 'did:plc:4hqjfn7m6n5hno3doamuhgef';

/** A Jetstream commit event creating a post. */
function createPost(rkey: string, timeUs: number, record: Record<string, unknown> = {}) {
  return {
    did: DID,
    time_us: timeUs,
    kind: 'commit',
    commit: {
      rev: `3lbx${rkey}`,
      operation: 'create',
      collection: 'app.bsky.feed.post',
      rkey,
      record: {
        $type: 'app.bsky.feed.post',
        createdAt: new Date(timeUs / 1000 - 1500).toISOString(),
        langs: ['en'],
        text: `Post ${rkey}`,
        ...record,
      },
      cid: `bafyreib${rkey}`,
    },
  };
}

const OTHER_EVENTS = [
  {
    did: DID,
    time_us: T0 + 10,
    kind: 'commit',
    commit: { rev: '3lbxd', operation: 'delete', collection: 'app.bsky.feed.post', rkey: '3lbxold' },
  },
  {
    did: DID,
    time_us: T0 + 11,
    kind: 'commit',
    commit: {
      rev: '3lbxu',
      operation: 'update',
      collection: 'app.bsky.feed.post',
      rkey: '3lbxupd',
      record: { $type: 'app.bsky.feed.post', text: 'edited', createdAt: '2026-11-21T09:00:00Z' },
    },
  },
  {
    did: DID,
    time_us: T0 + 12,
    kind: 'commit',
    commit: {
      rev: '3lbxl',
      operation: 'create',
      collection: 'app.bsky.feed.like',
      rkey: '3lbxlike',
      record: {
        $type: 'app.bsky.feed.like',
        subject: { uri: 'at://x', cid: 'y' },
        createdAt: '2026-11-21T09:00:00Z',
      },
    },
  },
  {
    did: DID,
    time_us: T0 + 13,
    kind: 'identity',
    identity: { did: DID, handle: 'alice.example.com', seq: 1, time: '2026-11-21T09:59:00Z' },
  },
  {
    did: DID,
    time_us: T0 + 14,
    kind: 'account',
    account: { active: true, did: DID, seq: 2, time: '2026-11-21T09:59:00Z' },
  },
];

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

function streamContext(cursor: string | null, onEmit?: () => Promise<void>) {
  const controller = new AbortController();
  const batches: { signals: SourceSignal[]; cursor: string | null; at: number }[] = [];
  const context: StreamContext = {
    cursor,
    now: NOW,
    signal: controller.signal,
    fetch,
    emit: async (signals, next) => {
      batches.push({ signals, cursor: next, at: performance.now() });
      await onEmit?.();
    },
  };
  return { context, controller, batches };
}

describe('bluesky source', () => {
  let wss: WebSocketServer;
  let url: string;
  let onConnection: (socket: WebSocket) => void;
  let requested: string[];
  let refuseWith: number | null = null;
  before(async () => {
    wss = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      verifyClient: (_info, done) => (refuseWith === null ? done(true) : done(false, refuseWith)),
    });
    await once(wss, 'listening');
    url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/subscribe`;
    wss.on('connection', (socket, req) => {
      requested.push(req.url ?? '');
      onConnection(socket);
    });
  });
  after(async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });
  beforeEach(() => {
    requested = [];
    refuseWith = null;
  });

  test('emits created posts after 1 s with the last time_us as cursor; ignores other events and bad JSON', async () => {
    onConnection = (socket) => {
      socket.send(
        JSON.stringify(
          createPost('3lbxkq2ynvc2a', T0 + 1, {
            text: 'Launch day for #OpenSky — try it at opensky.example',
            langs: ['en-GB', 'fr'],
            createdAt: '2026-11-21T09:59:58.123Z',
            facets: [
              {
                index: { byteStart: 15, byteEnd: 23 },
                features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'OpenSky' }],
              },
              {
                index: { byteStart: 37, byteEnd: 51 },
                features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://opensky.example' }],
              },
            ],
          }),
        ),
      );
      for (const event of OTHER_EVENTS) socket.send(JSON.stringify(event));
      socket.send('{"did": "did:plc:x", "kind": "commit", ');
      socket.send(
        JSON.stringify(
          createPost('3lbxfuture', T0 + 20, { createdAt: '2030-01-01T00:00:00Z', langs: ['english!!'] }),
        ),
      );
      socket.send(
        JSON.stringify(createPost('3lbxnodate', T0 + 30, { createdAt: 'yesterday', langs: undefined })),
      );
      socket.send(JSON.stringify(createPost('3lbxblank', T0 + 40, { text: '  \n ' })));
    };
    const source = blueskySource({ url });
    assert.equal(source.id, 'bluesky');
    assert.equal(source.kind, 'stream');
    assert.equal(source.attribution, 'Bluesky Social PBC (Jetstream)');
    assert.equal(source.licence_url, 'https://docs.bsky.app/docs/support/developer-guidelines');
    const { context, controller, batches } = streamContext(null);
    const started = performance.now();
    const running = source.run(context);
    await waitFor(() => batches.length === 1);
    controller.abort();
    await running;

    assert.deepEqual(requested, ['/subscribe?wantedCollections=app.bsky.feed.post']);
    assert.ok(batches[0].at - started >= 900, 'a partial batch waits for the 1 s tick');
    const { signals, cursor } = batches[0];
    assertContract(signals, NOW + 60_000);
    assert.equal(cursor, String(T0 + 30));
    assert.deepEqual(signals[0], {
      source: 'bluesky',
      external_id: `${DID}/3lbxkq2ynvc2a`,
      text: 'Launch day for #OpenSky — try it at opensky.example',
      title: null,
      url: `https://bsky.app/profile/${DID}/post/3lbxkq2ynvc2a`,
      author: DID,
      observed_at: Date.parse('2026-11-21T09:59:58.123Z'),
      lang: 'en-GB',
      keywords: ['OpenSky'],
    });
    assert.deepEqual(
      signals.map((s) => s.external_id),
      [`${DID}/3lbxkq2ynvc2a`, `${DID}/3lbxfuture`, `${DID}/3lbxnodate`],
    );
    const [, future, undated] = signals;
    assert.ok(
      future.observed_at >= NOW && future.observed_at < NOW + 60_000,
      'a future createdAt is clamped to now',
    );
    assert.equal(future.lang, null);
    assert.equal(
      undated.observed_at,
      Math.floor((T0 + 30) / 1000),
      'an unparsable createdAt falls back to time_us',
    );
    assert.equal(undated.lang, null);
    assert.equal(source.stats.malformed, 1);
  });

  test('hands over full batches of 200 at once and the rest on the next tick', async () => {
    onConnection = (socket) => {
      for (let i = 0; i < 450; i++) socket.send(JSON.stringify(createPost(`3lbxb${i}`, T0 + i)));
    };
    // A tick long enough that all 450 posts are in before it fires, however busy the machine: only full
    // batches can be handed over before it.
    const source = blueskySource({ url, flushMs: 1000 });
    const { context, controller, batches } = streamContext(null);
    const running = source.run(context);
    await waitFor(() => batches.reduce((n, b) => n + b.signals.length, 0) === 450);
    controller.abort();
    await running;
    assert.deepEqual(
      batches.map((b) => [b.signals.length, b.cursor]),
      [
        [200, String(T0 + 199)],
        [200, String(T0 + 399)],
        [50, String(T0 + 449)],
      ],
    );
  });

  test('waits for emit before handing over the next batch', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    onConnection = (socket) => {
      for (let i = 0; i < 30; i++) socket.send(JSON.stringify(createPost(`3lbxw${i}`, T0 + i)));
    };
    const source = blueskySource({ url, batchSize: 10, flushMs: 20 });
    let emitting = 0;
    let overlapped = false;
    const { context, controller, batches } = streamContext(null, async () => {
      emitting++;
      if (emitting > 1) overlapped = true;
      await gate;
      emitting--;
    });
    const running = source.run(context);
    await waitFor(() => batches.length === 1);
    await sleep(100);
    assert.equal(batches.length, 1, 'no second batch while the first is being stored');
    release();
    await waitFor(() => batches.reduce((n, b) => n + b.signals.length, 0) === 30);
    controller.abort();
    await running;
    assert.equal(overlapped, false);
  });

  test('resumes from the stored cursor and resolves when the server closes normally', async () => {
    onConnection = (socket) => {
      socket.send(JSON.stringify(createPost('3lbxr1', T0 + 500)));
      socket.close(1000, 'bye');
    };
    const source = blueskySource({ url, flushMs: 10_000 });
    const { context, batches } = streamContext(String(T0));
    await source.run(context);
    assert.deepEqual(requested, [`/subscribe?wantedCollections=app.bsky.feed.post&cursor=${T0}`]);
    assert.deepEqual(
      batches.map((b) => [b.signals.length, b.cursor]),
      [[1, String(T0 + 500)]],
      'what was read is handed over before resolving',
    );
  });

  test('rejects when the connection drops or the server closes with an error code', async () => {
    onConnection = (socket) => socket.terminate();
    await assert.rejects(blueskySource({ url }).run(streamContext(null).context), (error: unknown) => {
      assert.ok(error instanceof SourceError);
      assert.match(error.message, /code 1006/);
      return true;
    });
    onConnection = (socket) => socket.close(1011, 'overloaded');
    await assert.rejects(blueskySource({ url }).run(streamContext(null).context), /code 1011/);
  });

  test('rejects with the status when the handshake is refused, and when nothing listens', async () => {
    refuseWith = 503;
    await assert.rejects(blueskySource({ url }).run(streamContext(null).context), (error: unknown) => {
      assert.ok(error instanceof SourceError);
      assert.equal(error.status, 503);
      assert.match(error.message, /answered 503/);
      return true;
    });

    const spare = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(spare, 'listening');
    const port = (spare.address() as AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));
    await assert.rejects(
      blueskySource({ url: `ws://127.0.0.1:${port}/subscribe` }).run(streamContext(null).context),
      SourceError,
    );
  });

  test('resolves when the service stops, closing the connection', async () => {
    let serverSaw: number | null = null;
    onConnection = (socket) => {
      socket.on('close', (code) => {
        serverSaw = code;
      });
      socket.send(JSON.stringify(OTHER_EVENTS[3]));
    };
    const { context, controller } = streamContext(null);
    const source = blueskySource({ url });
    const running = source.run(context);
    // Once a message arrived the connection is open on both ends.
    await waitFor(() => source.stats.messages === 1);
    controller.abort();
    await running;
    await waitFor(() => serverSaw !== null);
    assert.equal(serverSaw, 1000);

    const aborted = streamContext(null);
    aborted.controller.abort();
    await blueskySource({ url }).run(aborted.context);
    assert.equal(requested.length, 1, 'an already stopped service does not connect');
  });

  test('drops the connection when too many posts are waiting, and when the stream goes silent', async () => {
    onConnection = (socket) => {
      for (let i = 0; i < 20; i++) socket.send(JSON.stringify(createPost(`3lbxq${i}`, T0 + i)));
    };
    await assert.rejects(
      blueskySource({ url, maxQueued: 5, flushMs: 10_000 }).run(streamContext(null).context),
      /more than 5 Bluesky posts waiting/,
    );

    onConnection = () => {};
    await assert.rejects(
      blueskySource({ url, idleMs: 100, flushMs: 20 }).run(streamContext(null).context),
      /sent nothing for/,
    );
  });
});
