// Team chat: channels, the alert channel, alert settings, and alerts posted through the job worker.
import type { Clock } from '../../../platform/clock.ts';
import { ApiError } from '../../../platform/errors.ts';
import type { JobQueue } from '../../../platform/jobs/queue.ts';
import { type JobContext, RetryLaterError } from '../../../platform/jobs/worker.ts';
import { type AlertEvent, type CRISIS_EVENT_TYPES, type Severity, severityRank } from '../../alerts/index.ts';
import { TREND_LIFECYCLE_EVENT, type TREND_VELOCITY_EVENT } from '../../trends/index.ts';
import type { OAuthService } from '../oauth.ts';
import {
  type ChatMessage,
  ChatRateLimitedError,
  rateLimitProblem,
  type SlackClient,
} from '../providers/slack.ts';
import { TokenRejectedError } from '../providers/types.ts';
import type { ConnectionRow, IntegrationsStore } from '../store.ts';
import { crisisAlert, lifecycleAlert, velocityAlert } from './messages.ts';

export const CHAT_POST_JOB = 'integrations.chat.post';
const FAN_OUT_PAGE = 200;

interface ChatSettingsView {
  new_trend_alerts: boolean;
  crisis_alerts: boolean;
  min_severity: Severity;
  velocity_threshold: number;
}

const DEFAULT_CHAT_SETTINGS: ChatSettingsView = {
  new_trend_alerts: true,
  crisis_alerts: true,
  min_severity: 'high',
  velocity_threshold: 75,
};

interface ChatPostPayload {
  connection_id: number;
  event_id: string;
  message: ChatMessage;
}

interface Log {
  warn(obj: object, msg: string): void;
}

function parse<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return { ...fallback, ...(JSON.parse(text) as T) };
  } catch {
    return fallback;
  }
}

export class ChatService {
  constructor(
    private readonly deps: {
      store: IntegrationsStore;
      /** Which users' accounts are enabled (the accounts module's): a disabled one gets nothing posted. */
      users: { activeAmong(userIds: readonly number[]): Promise<Set<number>> };
      oauth: OAuthService;
      slack: SlackClient;
      jobs: JobQueue;
      clock: Clock;
      poke: () => void;
      log?: Log;
    },
  ) {}

  settingsOf(connection: ConnectionRow): ChatSettingsView {
    return parse(connection.settings, DEFAULT_CHAT_SETTINGS);
  }

  channelOf(connection: ConnectionRow): { channel_id: string; channel_name: string } | null {
    const selection = parse<{ channel_id?: string; channel_name?: string }>(connection.selection, {});
    return selection.channel_id
      ? { channel_id: selection.channel_id, channel_name: selection.channel_name ?? '' }
      : null;
  }

  async status(userId: number) {
    const connection = await this.deps.store.connection(userId, 'chat');
    if (!connection) {
      return {
        is_active: false,
        team_name: null,
        channel: null,
        channel_id: null,
        configuration_url: null,
        new_trend_alerts: false,
      };
    }
    const channel = this.channelOf(connection);
    const details = parse<{ configuration_url?: string }>(connection.details, {});
    return {
      is_active: connection.status === 'active',
      team_name: connection.account_name,
      channel: channel?.channel_name ?? null,
      channel_id: channel?.channel_id ?? null,
      configuration_url: details.configuration_url ?? null,
      new_trend_alerts: this.settingsOf(connection).new_trend_alerts,
    };
  }

  async channels(userId: number) {
    const connection = await this.deps.oauth.requireConnection(userId, 'chat');
    try {
      const channels = await this.deps.oauth.withToken(connection, (token) =>
        this.deps.slack.listChannels(token),
      );
      return { channels };
    } catch (error) {
      if (error instanceof ChatRateLimitedError) throw rateLimitProblem(error);
      throw error;
    }
  }

  async saveChannel(userId: number, body: { channel_id: string; channel_name: string }) {
    const connection = await this.deps.oauth.requireConnection(userId, 'chat');
    await this.deps.store.setSelection(connection.id, body, this.deps.clock.now());
    return this.status(userId);
  }

  async saveSettings(userId: number, body: ChatSettingsView): Promise<ChatSettingsView> {
    const connection = await this.deps.oauth.requireConnection(userId, 'chat');
    const settings: ChatSettingsView = {
      new_trend_alerts: body.new_trend_alerts,
      crisis_alerts: body.crisis_alerts,
      min_severity: body.min_severity,
      velocity_threshold: body.velocity_threshold,
    };
    await this.deps.store.setSettings(connection.id, settings, this.deps.clock.now());
    return settings;
  }

  // ---------- alerts

  /** Trend events go to every active connection with a channel whose settings match. */
  async onTrendEvent(
    event: AlertEvent<typeof TREND_VELOCITY_EVENT | typeof TREND_LIFECYCLE_EVENT>,
  ): Promise<void> {
    const velocity = event.data.velocity;
    const message =
      event.type === TREND_LIFECYCLE_EVENT ? lifecycleAlert(event.data) : velocityAlert(event.data);
    await this.fanOut(
      event,
      message,
      undefined,
      (settings) => settings.new_trend_alerts && velocity >= settings.velocity_threshold,
    );
  }

  /** Crisis events go to their owner only, when crisis alerts are on and the severity is high enough. */
  async onCrisisEvent(event: AlertEvent<(typeof CRISIS_EVENT_TYPES)[number]>): Promise<void> {
    const userId = event.data.user_id;
    if (!Number.isInteger(userId) || userId < 1) return;
    const rank = severityRank(event.data.severity);
    await this.fanOut(
      event,
      crisisAlert(event.type, event.data),
      userId,
      (settings) => settings.crisis_alerts && rank >= severityRank(settings.min_severity),
    );
  }

  private async fanOut(
    event: AlertEvent,
    message: ChatMessage,
    userId: number | undefined,
    matches: (settings: ChatSettingsView) => boolean,
  ): Promise<void> {
    let afterId = 0;
    let queued = 0;
    for (;;) {
      const page = await this.deps.store.activeConnections('chat', afterId, FAN_OUT_PAGE, userId);
      if (page.length === 0) break;
      afterId = page[page.length - 1]!.id;
      const matching = page.filter((c) => this.channelOf(c) && matches(this.settingsOf(c)));
      if (matching.length === 0) continue;
      const enabled = await this.deps.users.activeAmong(matching.map((c) => c.user_id));
      const targets = matching.filter((c) => enabled.has(c.user_id));
      if (targets.length === 0) continue;
      const now = this.deps.clock.now();
      await this.deps.store.transaction(async (trx) => {
        for (const connection of targets) {
          // A re-run of this listener (at-least-once) must not post twice.
          if (!(await this.deps.store.claimChatAlert(connection.id, event.id, now, trx))) continue;
          const payload: ChatPostPayload = { connection_id: connection.id, event_id: event.id, message };
          await this.deps.jobs.enqueue(trx, { type: CHAT_POST_JOB, payload, maxAttempts: 8 });
          queued++;
        }
      });
    }
    if (queued > 0) this.deps.poke();
  }

  /** The job: post one message. Rate limits retry at Retry-After; a revoked token marks the connection broken. */
  async deliver(job: JobContext<ChatPostPayload>): Promise<void> {
    const connection = await this.deps.store.connectionById(Number(job.payload.connection_id));
    if (connection?.status !== 'active') return;
    const channel = this.channelOf(connection);
    if (!channel) return;
    try {
      const token = await this.deps.oauth.accessToken(connection);
      await this.deps.slack.postMessage(token, channel.channel_id, job.payload.message);
    } catch (error) {
      if (error instanceof ChatRateLimitedError) {
        throw new RetryLaterError(
          'chat tool rate limit',
          this.deps.clock.now() + error.retryAfterSeconds * 1000,
        );
      }
      if (error instanceof TokenRejectedError) {
        await this.deps.oauth.markBroken(connection, error.reason);
        this.deps.log?.warn(
          { connectionId: connection.id, reason: error.reason },
          'chat connection marked broken',
        );
        return;
      }
      // 503: unreachable or failing, try again with backoff. Other refusals (channel gone …) will not heal.
      if (error instanceof ApiError && error.status !== 503) {
        this.deps.log?.warn(
          { connectionId: connection.id, code: error.code, detail: error.detail },
          'chat alert not posted',
        );
        return;
      }
      throw error;
    }
  }
}
