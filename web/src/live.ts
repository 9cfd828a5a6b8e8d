// The live stream (/ws/trends-live). Browsers cannot set headers on a WebSocket, so the key goes as `?token=`,
// the documented browser form (the server redacts it from logs).
import { currentKey } from './session.ts';

export interface TrendUpdate {
  trend_id: number;
  volume: number;
  velocity: number;
  growth: number | null;
  lifecycle_stage: string;
  sentiment_category: string;
}

/** Opens the stream and calls `onUpdate` for each `trend.update`; returns a function that closes it. */
export function openTrendStream(onUpdate: (update: TrendUpdate) => void, onState: (open: boolean) => void) {
  const key = currentKey();
  if (!key) return () => undefined;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(
    `${scheme}://${location.host}/ws/trends-live?token=${encodeURIComponent(key)}`,
  );
  socket.onopen = () => onState(true);
  socket.onclose = () => onState(false);
  socket.onmessage = (message) => {
    try {
      const parsed = JSON.parse(String(message.data)) as { type: string; data: TrendUpdate };
      if (parsed.type === 'trend.update') onUpdate(parsed.data);
    } catch {
      // Not JSON: nothing the page can use.
    }
  };
  return () => socket.close();
}
