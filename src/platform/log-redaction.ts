// What a request's URL may show in the log: the live stream's `token` (an API key) and OAuth's `code` and
// `state` never, however the client spells or nests them.

/** Query parameters whose values are secrets. */
const SECRET_PARAMETERS = new Set(['token', 'api_key', 'code', 'state']);
/** A secret parameter written inside another value (`trends=a;token=…`). */
const NESTED_SECRET = /(?:^|[^a-z0-9_])(?:token|api_key|code|state)\s*[=:]/i;
/** Crestwatch API keys, wherever they appear (`cw_` and 40 base62 characters). */
const API_KEY = /cw_[A-Za-z0-9]{40}/g;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/**
 * The URL as logged: the value of a secret parameter is `[redacted]` whether its name is written plainly,
 * percent-encoded (`tok%65n`) or in another case; a value holding a secret parameter of its own is redacted
 * whole; any API key left anywhere is redacted.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  let out = url;
  if (q >= 0) {
    const parts = url
      .slice(q + 1)
      .split('&')
      .map((part) => {
        const eq = part.indexOf('=');
        if (eq < 0) return part;
        const name = part.slice(0, eq);
        const secret =
          SECRET_PARAMETERS.has(decoded(name).trim().toLowerCase()) ||
          NESTED_SECRET.test(decoded(part.slice(eq + 1)));
        return secret ? `${name}=[redacted]` : part;
      });
    out = `${url.slice(0, q)}?${parts.join('&')}`;
  }
  return out.replace(API_KEY, '[redacted]');
}
