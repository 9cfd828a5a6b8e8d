// Messages between processes: in-process when embedded, Redis pub/sub when REDIS_URL is set.
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

export type Handler = (message: string) => void;

export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: Handler): Promise<() => void>;
  close(): Promise<void>;
}

export class LocalPubSub implements PubSub {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(channel: string, message: string): Promise<void> {
    this.emitter.emit(channel, message);
  }

  async subscribe(channel: string, handler: Handler): Promise<() => void> {
    this.emitter.on(channel, handler);
    return () => this.emitter.off(channel, handler);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

export class RedisPubSub implements PubSub {
  private readonly local = new EventEmitter().setMaxListeners(0);
  private readonly channels = new Set<string>();

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      this.local.emit(channel.slice(this.prefix.length), message);
    });
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.publisher.publish(this.prefix + channel, message);
  }

  async subscribe(channel: string, handler: Handler): Promise<() => void> {
    if (!this.channels.has(channel)) {
      this.channels.add(channel);
      await this.subscriber.subscribe(this.prefix + channel);
    }
    this.local.on(channel, handler);
    return () => this.local.off(channel, handler);
  }

  async close(): Promise<void> {
    this.local.removeAllListeners();
    this.subscriber.disconnect();
  }
}
