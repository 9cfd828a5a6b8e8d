// ioredis clients that fail fast instead of queueing forever, so a Redis outage becomes a 503, not a hang.
import { Redis } from 'ioredis';

export async function connectRedis(url: string, name: string): Promise<Redis> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectionName: `crestwatch-${name}`,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: 2000,
    connectTimeout: 3000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // Errors surface on the commands that hit them; without a listener ioredis would print each reconnect attempt.
  client.on('error', () => {});
  await client.connect();
  return client;
}

export function isRedisUnavailable(error: unknown): boolean {
  const message = (error as Error | undefined)?.message ?? '';
  return /Stream isn't writeable|Connection is closed|Command timed out|ECONNREFUSED|enableOfflineQueue|MaxRetriesPerRequest/i.test(
    message,
  );
}
