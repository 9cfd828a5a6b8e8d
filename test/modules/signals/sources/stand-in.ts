// Shared by the source adapter tests: a local HTTP stand-in for a provider, a poll context, and a check of
// emitted signals against the ingestion schema (the contract the runner stores them under).
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignalInput } from '../../../../src/modules/signals/schemas.ts';
import type { SourceContext, SourceSignal } from '../../../../src/modules/signals/sources/types.ts';
import { compileBodyValidator } from '../../../../src/platform/validation.ts';

export interface StandIn {
  /** `http://127.0.0.1:<port>` */
  url: string;
  host: string;
  requests: { url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function standIn(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export function pollContext(cursor: string | null, now: number): SourceContext {
  return { cursor, now, signal: new AbortController().signal, fetch };
}

const validate = compileBodyValidator(SignalInput);

/** Asserts each signal passes `POST /api/signals` item validation (nulls dropped, time as ISO) and is not in the future. */
export function assertContract(signals: SourceSignal[], now: number): void {
  for (const signal of signals) {
    const item = Object.fromEntries(
      Object.entries({ ...signal, observed_at: new Date(signal.observed_at).toISOString() }).filter(
        ([, value]) => value !== null && value !== undefined,
      ),
    );
    assert.ok(validate(item), `${JSON.stringify(item)}: ${JSON.stringify(validate.errors)}`);
    assert.ok(signal.text.trim().length > 0);
    assert.ok(signal.observed_at <= now, `${signal.external_id} observed_at is after now`);
  }
}
