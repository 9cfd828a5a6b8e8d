// A tiny HTTP proxy on 127.0.0.1 in front of a real app, for the SDK's retry tests: it answers from a script
// first (429, 503 with Retry-After, or "forward, then lose the answer") and forwards everything else.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Scripted =
  /** Answer this status (problem+json) without forwarding. */
  | { status: number; retryAfter?: string }
  /** Forward to the app, throw its answer away and answer this status instead (a lost response). */
  | { forwardThen: number; retryAfter?: string };

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  at: number;
}

export interface ScriptedProxy {
  url: string;
  seen: SeenRequest[];
  script: Scripted[];
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<ScriptedProxy> {
  const seen: SeenRequest[] = [];
  const script: Scripted[] = [];

  async function forward(req: http.IncomingMessage, body: Buffer) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === 'host' || name === 'connection' || name === 'content-length')
        continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    return fetch(target + req.url, {
      method: req.method,
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, at: Date.now() });
      const body = Buffer.concat(chunks);
      const next = script.shift();
      try {
        if (next && 'forwardThen' in next) await (await forward(req, body)).arrayBuffer();
        if (next) {
          const status = 'status' in next ? next.status : next.forwardThen;
          res.writeHead(status, {
            'content-type': 'application/problem+json',
            ...(next.retryAfter !== undefined ? { 'retry-after': next.retryAfter } : {}),
          });
          res.end(
            JSON.stringify({ type: 'about:blank', title: 'Scripted', status, detail: 'from the proxy' }),
          );
          return;
        }
        const answer = await forward(req, body);
        const headers: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'content-length')
            headers[name] = value;
        });
        res.writeHead(answer.status, headers);
        res.end(Buffer.from(await answer.arrayBuffer()));
      } catch (error) {
        res.writeHead(502);
        res.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
