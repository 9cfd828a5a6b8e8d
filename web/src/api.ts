// Calls to the Crestwatch API with the signed-in key. Failures become ApiProblem carrying the API's own `detail`,
// which the pages show as they are.
import type { Problem } from '@crestwatch/client';
import { currentKey } from './session.ts';

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

type Query = Record<string, string | number | undefined | null>;

/** `path?query` with empty values left out (the API answers 400 for an empty `search=`). */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; key?: string | null; accept?: string } = {},
): Promise<T> {
  const key = init.key === undefined ? currentKey() : init.key;
  const headers: Record<string, string> = { accept: init.accept ?? 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'omit',
    });
  } catch {
    throw new ApiProblem(0, 'network', 'Crestwatch did not answer; check that the service is running.');
  }
  if (res.status === 204) return undefined as T;
  if (!res.ok) {
    const problem = (await res.json().catch(() => ({}))) as Partial<Problem>;
    throw new ApiProblem(
      res.status,
      problem.code ?? 'error',
      problem.detail ?? `The request failed with status ${res.status}.`,
    );
  }
  if (init.accept && init.accept !== 'application/json') return (await res.text()) as T;
  return (await res.json()) as T;
}

/** The message to show for any failure: the API's `detail` when it gave one. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
