// Upgrade requests answered with anything but 101 close their connection.
//
// Once an 'upgrade' listener exists (@fastify/websocket adds one), Node hands every request carrying
// `Connection: Upgrade` to it, off the HTTP parser: the plugin routes it through Fastify with a response bound to
// the raw socket, and only its own routes' hooks ever end that socket. After any other answer (a 404, a 503 while
// shutting down, an ordinary route) nobody closes it, so the client hangs and `server.close()` waits for ever.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Node sets `upgrade` on requests it passed to the 'upgrade' event (never on ordinary or injected ones). */
const detached = (request: FastifyRequest) => (request.raw as { upgrade?: boolean }).upgrade === true;

export function registerUpgradeGuard(app: FastifyInstance): void {
  // A switched connection is hijacked and never reaches these hooks, so they only see refused upgrades.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (detached(request)) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    // After the answer is flushed: end, then destroy so a client that never closes its side cannot hold it.
    if (detached(request)) request.raw.socket.destroySoon();
    done();
  });
}

/** For answers sent outside the hooks (Fastify's frameworkErrors, e.g. a malformed URL): the same close. */
export function closeRefusedUpgrade(request: FastifyRequest, reply: FastifyReply): void {
  if (!detached(request)) return;
  reply.header('Connection', 'close');
  reply.raw.once('finish', () => request.raw.socket.destroySoon());
}
