import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Redis } from 'ioredis';
import { LocalPubSub } from '../../src/platform/pubsub.ts';
import { QuotaSeedCoordinator } from '../../src/platform/quota-seeding.ts';

/** The two Redis calls an instance answering a flush request makes, recorded. */
function recordingRedis() {
  const acks: string[] = [];
  const redis = {
    multi() {
      const chain = {
        incr(key: string) {
          acks.push(key);
          return chain;
        },
        expire: () => chain,
        exec: async () => [],
      };
      return chain;
    },
  } as unknown as Redis;
  return { redis, acks };
}

const PREFIX = 'test:';
const ACK = `${PREFIX}quota-flush-ack:0011223344556677`;

test('a flush another instance asks for is done twice and acknowledged', async (t) => {
  const pubsub = new LocalPubSub();
  const { redis, acks } = recordingRedis();
  let flushes = 0;
  const errors: unknown[] = [];
  const coordinator = new QuotaSeedCoordinator(
    redis,
    pubsub,
    PREFIX,
    { flush: async () => void flushes++ },
    (e) => errors.push(e),
  );
  await coordinator.start();
  t.after(() => coordinator.stop());
  await pubsub.publish('quota-flush', ACK);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(flushes, 2);
  assert.deepEqual(acks, [ACK]);
  assert.deepEqual(errors, []);
});

test('a flush that fails while the database is away is reported, acknowledged and never ends the process', async (t) => {
  const pubsub = new LocalPubSub();
  const { redis, acks } = recordingRedis();
  const errors: unknown[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.prependListener('unhandledRejection', onUnhandled);
  t.after(() => process.removeListener('unhandledRejection', onUnhandled));
  const lost = new Error('Connection terminated unexpectedly');
  const coordinator = new QuotaSeedCoordinator(
    redis,
    pubsub,
    PREFIX,
    {
      flush: async () => {
        throw lost;
      },
    },
    (e) => errors.push(e),
  );
  await coordinator.start();
  t.after(() => coordinator.stop());
  await pubsub.publish('quota-flush', ACK);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(errors, [lost]);
  assert.deepEqual(unhandled, []);
  // Acknowledged all the same: the asking instance need not wait out its timeout to seed from the database.
  assert.deepEqual(acks, [ACK]);
});

test("a message on the channel that is not this deployment's acknowledgement key is ignored", async (t) => {
  const pubsub = new LocalPubSub();
  const { redis, acks } = recordingRedis();
  let flushes = 0;
  const coordinator = new QuotaSeedCoordinator(
    redis,
    pubsub,
    PREFIX,
    { flush: async () => void flushes++ },
    () => {},
  );
  await coordinator.start();
  t.after(() => coordinator.stop());
  await pubsub.publish('quota-flush', 'other:quota-flush-ack:1');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(flushes, 0);
  assert.deepEqual(acks, []);
});
