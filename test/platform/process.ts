// Child processes of the real entry point (src/main.ts) and raw keep-alive connections to them, for the
// shutdown tests: what a load balancer's connection pool does to a stopping instance.
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';

const children: ChildProcess[] = [];
const sockets: net.Socket[] = [];

/** Kills every server and connection still open (call from `after`). */
export function cleanUp(): void {
  for (const child of children) child.kill('SIGKILL');
  for (const socket of sockets) socket.destroy();
}

export function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start within 30 s')), 30_000);
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** A raw HTTP/1.1 keep-alive connection: requests are written as given and answers read one at a time. */
export class KeepAliveClient {
  closed = false;
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
    socket.on('error', () => {});
    sockets.push(socket);
  }

  static connect(port: number): Promise<KeepAliveClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new KeepAliveClient(socket)));
      socket.once('error', reject);
    });
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Writes `text` and resolves with the next complete answer. */
  async request(text: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    this.socket.write(text);
    for (;;) {
      const split = this.buffer.indexOf('\r\n\r\n');
      if (split >= 0) {
        const [statusLine, ...lines] = this.buffer.subarray(0, split).toString().split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= split + 4 + length) {
          const body = this.buffer.subarray(split + 4, split + 4 + length).toString();
          this.buffer = this.buffer.subarray(split + 4 + length);
          return { status: Number(statusLine!.split(' ')[1]), headers, body };
        }
      }
      if (this.closed) throw new Error(`connection closed before a complete answer: ${this.buffer}`);
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
      this.waiting = null;
    }
  }
}
