import { Logger } from '@nestjs/common';
import type { PlatformMetrics } from '@platform/observability';
import type { MessageDirection, RefusalReason } from './message-authentication';

/** At most one log line per this interval, however many messages are dropped: a flood must not flood the logs. */
const LOG_INTERVAL_MS = 60_000;

/**
 * Reports transport messages dropped unread: each one in
 * `platform_transport_messages_refused_total{direction, reason}`, and at most
 * one warning per interval, counting what was dropped since the previous one.
 * The message itself is never logged: it is the sender's, and may be forged
 * to poison the logs.
 */
export class RefusedMessages {
  private readonly logger = new Logger('Transport');
  private readonly sinceLastLine = new Map<string, number>();
  private lastLineAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly metrics: PlatformMetrics,
    private readonly intervalMs = LOG_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  refused(direction: MessageDirection, reason: RefusalReason, channel: string): void {
    this.metrics.transportMessageRefused(direction, reason);
    const key = `${direction}:${reason}`;
    this.sinceLastLine.set(key, (this.sinceLastLine.get(key) ?? 0) + 1);
    if (this.now() - this.lastLineAt < this.intervalMs) return;
    this.lastLineAt = this.now();
    this.logger.warn(
      { refused: Object.fromEntries(this.sinceLastLine), channel, intervalMs: this.intervalMs },
      'transport messages dropped unread (unsigned, wrongly signed, stale or misrouted); see platform_transport_messages_refused_total',
    );
    this.sinceLastLine.clear();
  }
}
