// The live stream (/ws/trends-live). Browsers cannot set headers on a WebSocket, so the key goes as `?token=`,
// the documented browser form (the server redacts it from logs).
import type { StreamMessage, TrendUpdate } from '@crestwatch/client';
import { currentKey } from './session.ts';

/**
 * The `trends` filter for these trend names, when the stream can take them all (at most 50 names of at most
 * 100 characters, 2,000 in all, no commas); null otherwise (then every trend is streamed).
 */
function trendFilter(names: readonly string[]): string | null {
  if (names.length === 0 || names.length > 50) return null;
  if (names.some((n) => n.length > 100 || n.includes(','))) return null;
  const joined = names.join(',');
  return joined.length <= 2000 ? joined : null;
}

/**
 * Opens the stream and calls `onUpdate` for each `trend.update`; returns a function that closes it. With
 * `names`, only those trends are streamed (a page showing 20 rows needs no others).
 */
export function openTrendStream(
  onUpdate: (update: TrendUpdate) => void,
  onState: (open: boolean) => void,
  names: readonly string[] = [],
) {
  const key = currentKey();
  if (!key) return () => undefined;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const filter = trendFilter(names);
  const socket = new WebSocket(
    `${scheme}://${location.host}/ws/trends-live?token=${encodeURIComponent(key)}` +
      (filter === null ? '' : `&trends=${encodeURIComponent(filter)}`),
  );
  socket.onopen = () => onState(true);
  socket.onclose = () => onState(false);
  socket.onmessage = (message) => {
    try {
      const parsed = JSON.parse(String(message.data)) as StreamMessage;
      if (parsed.type === 'trend.update') onUpdate(parsed.data);
    } catch {
      // Not JSON: nothing the page can use.
    }
  };
  return () => socket.close();
}
