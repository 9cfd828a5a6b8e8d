// When Redis loses a quota counter, it is rebuilt from the database: but each instance counts requests in
// memory and flushes them every few seconds, so the database alone misses what the other instances have not
// flushed yet. Before seeding, the instance that found the counter missing asks every instance (over pub/sub)
// to flush its usage now and waits for each to confirm. While the counter is missing no instance counts a
// request for that user (each waits for the seed), so what is flushed is everything counted so far.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { PubSub } from './pubsub.ts';

const CHANNEL = 'quota-flush';
/** Longest wait for the other instances' confirmations; a dead subscriber must not hold requests up. */
const ACK_TIMEOUT_MS = 1000;
const ACK_POLL_MS = 5;
const ACK_TTL_SECONDS = 60;

interface Flushable {
  flush(): Promise<void>;
}

export class QuotaSeedCoordinator {
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly pubsub: PubSub,
    /** The Redis key prefix of this deployment (REDIS_KEY_PREFIX): channels and keys are namespaced by it. */
    private readonly prefix: string,
    private readonly usage: Flushable,
    /** A flush another instance asked for failed (the database is away): logged, never thrown. */
    private readonly onFlushError: (error: unknown) => void,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(CHANNEL, (ackKey) => {
      void this.confirm(ackKey);
    });
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** Every instance flushes its counted usage to the database; resolves once all confirmed (or after 1 s). */
  async flushEverywhere(): Promise<void> {
    const ackKey = `${this.prefix}quota-flush-ack:${randomBytes(8).toString('hex')}`;
    // PUBLISH answers how many subscribers got the message: one per running instance, this one included.
    const instances = await this.redis.publish(this.prefix + CHANNEL, ackKey);
    const deadline = performance.now() + ACK_TIMEOUT_MS;
    while (performance.now() < deadline) {
      if (Number((await this.redis.get(ackKey)) ?? 0) >= instances) break;
      await new Promise((resolve) => setTimeout(resolve, ACK_POLL_MS));
    }
    await this.redis.del(ackKey);
  }

  private async confirm(ackKey: string): Promise<void> {
    if (!ackKey.startsWith(`${this.prefix}quota-flush-ack:`)) return;
    try {
      // Twice: a flush already under way took its counts before this message came.
      await this.usage.flush();
      await this.usage.flush();
    } catch (error) {
      // The counts stay in memory for the next flush. Nothing awaits this handler, so a rejection here would be
      // unhandled and end the process; the asking instance seeds from what the database holds.
      this.onFlushError(error);
    } finally {
      await this.redis
        .multi()
        .incr(ackKey)
        .expire(ackKey, ACK_TTL_SECONDS)
        .exec()
        .catch(() => undefined);
    }
  }
}
