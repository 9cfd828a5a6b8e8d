// A barrier for live-stream tests: proof that a client has received everything published before it.
import { waitFor } from '../modules/webhooks/receiver.ts';
import type { TestContext } from './app.ts';
import { drainJobs } from './jobs.ts';

/** The type of barrier messages; leave them out when looking at what a client received. */
export const STREAM_BARRIER = 'test.barrier';

let barriers = 0;

/**
 * Drains the job queue (the domain-event listeners that publish alerts), then publishes a marker to
 * `userId`'s clients and waits until `messages` holds it. Messages travel one pub/sub channel and one
 * socket per client in order, so once the marker is there every message published before it for this
 * client has arrived too: a check that the client got nothing else can then fail, and does not depend
 * on how long a sleep was.
 */
export async function streamBarrier(
  ctx: Pick<TestContext, 'app'>,
  userId: number,
  messages: readonly { type: string; data?: unknown }[],
): Promise<void> {
  await drainJobs(ctx);
  const id = `barrier-${++barriers}`;
  await ctx.app.services.stream.publish({ type: STREAM_BARRIER, data: { id }, user_id: userId });
  await waitFor(`${id} on the stream`, () =>
    messages.some((m) => m.type === STREAM_BARRIER && (m.data as { id?: string } | undefined)?.id === id)
      ? true
      : undefined,
  );
}
