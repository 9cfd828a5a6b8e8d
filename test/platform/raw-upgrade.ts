// A WebSocket upgrade request over a bare TCP connection, to see exactly what the server does with the socket
// after its answer (a WebSocket client library would close it itself).
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the server ended the connection within `closeWithinMs` of its complete answer. */
  closed: boolean;
  /** Still connected when `closed` is false: the caller destroys it. */
  socket: net.Socket;
}

const UPGRADE_HEADERS = {
  Upgrade: 'websocket',
  Connection: 'Upgrade',
  'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'Sec-WebSocket-Version': '13',
};

/** Sends `GET path` with the upgrade headers (or `headers` instead) and reads one answer. */
export function rawRequest(
  port: number,
  path: string,
  options: { headers?: Record<string, string>; closeWithinMs?: number } = {},
): Promise<RawAnswer> {
  const headers = { Host: `127.0.0.1:${port}`, ...(options.headers ?? UPGRADE_HEADERS) };
  const closeWithinMs = options.closeWithinMs ?? 1000;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    let answer: Omit<RawAnswer, 'closed' | 'socket'> | undefined;
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = () => {
      if (!answer || timer) return;
      if (ended) return resolve({ ...answer, closed: true, socket });
      timer = setTimeout(() => resolve({ ...answer!, closed: ended, socket }), closeWithinMs);
    };
    const onEnd = () => {
      ended = true;
      if (timer) {
        clearTimeout(timer);
        timer = undefined;
        resolve({ ...answer!, closed: true, socket });
      } else if (!answer) reject(new Error(`closed before a complete answer: ${buffer.toString()}`));
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (answer) return;
      const split = buffer.indexOf('\r\n\r\n');
      if (split < 0) return;
      const [statusLine, ...lines] = buffer.subarray(0, split).toString().split('\r\n');
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(parsed['content-length'] ?? 0);
      const body = buffer.subarray(split + 4);
      if (body.length < length) return;
      answer = {
        status: Number(statusLine!.split(' ')[1]),
        headers: parsed,
        body: body.subarray(0, length).toString(),
      };
      settle();
    });
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', reject);
    socket.write(
      `GET ${path} HTTP/1.1\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`,
    );
  });
}
