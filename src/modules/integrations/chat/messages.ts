// Chat alert messages in Block Kit. Untrusted text (trend names, crisis titles, summaries) is escaped the way
// the chat tool requires (`&`, `<`, `>`), so `<!channel>` and friends arrive as text, and plain `@here`,
// `@channel`, `@everyone` get a zero-width joiner so they cannot notify anyone. Only http(s) URLs become links.
import type { CrisisData, LifecycleData, VelocityData } from '../../alerts/index.ts';
import type { ChatMessage } from '../providers/slack.ts';

export function escapeChat(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/([@!])(here|channel|everyone)\b/gi, '$1\u2060$2')
    .slice(0, 2800);
}

export function chatLink(url: unknown, text: string): string {
  if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/i.test(url)) return escapeChat(text);
  const safeUrl = url.replace(/[<>|]/g, (c) => encodeURIComponent(c));
  return `<${safeUrl}|${escapeChat(text)}>`;
}

/** The fallback `text` must not carry formatting either: escaped the same way. */
function message(fallback: string, lines: string[]): ChatMessage {
  return {
    text: escapeChat(fallback).slice(0, 300),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: lines.filter(Boolean).join('\n').slice(0, 2900) } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Sent by Crestwatch' }] },
    ],
  };
}

function num(value: unknown, digits = 0): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '?';
}

export function velocityAlert(data: VelocityData): ChatMessage {
  return message(`Trend alert: ${data.trend_name} (velocity ${num(data.velocity)})`, [
    `*Trend alert:* ${escapeChat(data.trend_name)}`,
    `Velocity *${num(data.velocity)}*/100 (was ${num(data.from_velocity)}) · ${escapeChat(data.category)} · ${num(data.volume)} mentions`,
  ]);
}

export function lifecycleAlert(data: LifecycleData): ChatMessage {
  return message(`Trend ${data.trend_name} is now ${data.to_stage}`, [
    `*Trend update:* ${escapeChat(data.trend_name)} moved from _${escapeChat(data.from_stage)}_ to *${escapeChat(data.to_stage)}*`,
    `Velocity ${num(data.velocity)}/100 · ${escapeChat(data.category)} · ${num(data.volume)} mentions`,
  ]);
}

const CRISIS_VERBS: Record<string, string> = {
  'crisis.event.opened': 'Crisis opened',
  'crisis.event.escalated': 'Crisis escalated',
  'crisis.event.resolved': 'Crisis subsided',
};

export function crisisAlert(type: string, data: CrisisData): ChatMessage {
  const verb = CRISIS_VERBS[type] ?? 'Crisis update';
  return message(`${verb}: ${data.title} (${data.severity})`, [
    `*${verb}:* ${escapeChat(data.title)}`,
    `Severity *${escapeChat(data.severity)}* · ${escapeChat(data.impacted_entity)}`,
    data.summary ? `>${escapeChat(data.summary).replaceAll('\n', '\n>')}` : '',
    chatLink(data.source_link, 'Source'),
  ]);
}
