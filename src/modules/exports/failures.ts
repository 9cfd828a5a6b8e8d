// Why a delivery failed, in words safe to store and show: never a provider's answer text, never a secret.

/** A failed delivery: `message` is our own sentence; `retryable` says whether a later attempt may succeed. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

function codeOf(error: unknown): string | undefined {
  type Coded = { code?: unknown; originalCode?: unknown; cause?: unknown };
  for (let e = error as Coded | undefined, depth = 0; e && depth < 4; depth++) {
    // nodemailer keeps the socket's own code (e.g. CERT_HAS_EXPIRED) as `originalCode` under its ESOCKET.
    if (typeof e.originalCode === 'string') return e.originalCode;
    if (typeof e.code === 'string') return e.code;
    e = e.cause as Coded | undefined;
  }
  return undefined;
}

/** The SSRF guard's refusal, wherever a library wrapped it. */
function refusalOf(error: unknown): string | undefined {
  for (
    let e = error as { name?: unknown; kind?: unknown; message?: unknown; cause?: unknown } | undefined,
      depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (e.name === 'OutboundError' && e.kind === 'refused' && typeof e.message === 'string') return e.message;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** Network-level failures (no answer at all), shared by the storage and mail destinations. */
export function describeNetworkFailure(error: unknown, what: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const refused = refusalOf(error);
  if (refused) return new DeliveryError(`The destination is not allowed: ${refused}`, false);
  const name = (error as { name?: unknown } | undefined)?.name;
  const code = codeOf(error);
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'ETIMEDOUT' || code === 'ETIMEOUT') {
    return new DeliveryError(`No answer from ${what} in time.`, true);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EDNS') {
    return new DeliveryError(`The host of ${what} does not resolve.`, true);
  }
  if (code === 'ECONNREFUSED') return new DeliveryError(`${capital(what)} refused the connection.`, true);
  if (code === 'ECONNRESET' || code === 'EPIPE') {
    return new DeliveryError(`${capital(what)} closed the connection.`, true);
  }
  if (code && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO|ALTNAME/.test(code)) {
    return new DeliveryError(`The TLS certificate of ${what} was not accepted (${code}).`, false);
  }
  const safe = code && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : '';
  return new DeliveryError(`The connection to ${what} failed${safe}.`, true);
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
