import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { afterCommit, SqlRunner } from '@platform/database';
import { OutboxRepository } from '@platform/outbox';
import { propagatedHeaders } from '@platform/observability';
import { OutboxNudges } from './outbox-nudges';
import { isRealtimeEventType } from './realtime-event-types';
import type { WebhookEventData } from './webhook-event-payloads';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from './webhook-event-types';

/** The app that emits (`emitted_by`): one per app, given to WebhooksModule. */
export const WEBHOOK_EMITTER = Symbol('WEBHOOK_EMITTER');

/** One event to emit: its type, the subject that orders it, and its typed `data`. */
export interface WebhookEvent<Type extends WebhookEventType = WebhookEventType> {
  type: Type;
  /**
   * What the event is about (`member:<operatorID>`, `campaignModel:<id>`):
   * events of one subject reach an endpoint in order when their type is
   * ordered. Name the subject, not the event, so related types share it.
   */
  subject: string;
  data: WebhookEventData[Type];
}

/**
 * Emits the events a tenant's webhook endpoints may receive, in the
 * transaction of the change, to the outbox (libs/outbox) (`runner` is its EntityManager), so an event
 * exists exactly when its change committed and none survives a rollback.
 * Delivery happens later, in services-api, never on the request that caused
 * the event: a slow receiver cannot slow a change down.
 *
 * A conversation event also nudges the real-time gateways' relay once its
 * transaction committed (never before: the relay would find nothing yet), so
 * it reaches sockets without waiting for the relay's poll. Here, at the one
 * place every event is appended, rather than in each use case.
 */
@Injectable()
export class WebhookEvents {
  constructor(
    private readonly events: OutboxRepository,
    @Inject(WEBHOOK_EMITTER) private readonly emittedBy: string,
    private readonly nudges: OutboxNudges,
  ) {}

  async emit<Type extends WebhookEventType>(runner: SqlRunner, scope: TenantScope, event: WebhookEvent<Type>): Promise<void> {
    const catalog = WEBHOOK_EVENT_TYPES[event.type];
    await this.events.append(runner, scope, {
      type: event.type,
      version: catalog.version,
      orderingKey: catalog.ordered ? event.subject : null,
      data: event.data,
      emittedBy: this.emittedBy,
      headers: propagatedHeaders() ?? null,
    });
    this.nudgeAfterCommit(runner, event.type);
  }

  /**
   * Emits many events of one type in one statement (one row each), in the
   * caller's transaction and in the order given: a change that touches
   * thousands of subjects at once (a notification fan-out) appends all
   * their events for the cost of one insert, never one per subject.
   */
  async emitMany<Type extends WebhookEventType>(runner: SqlRunner, scope: TenantScope, type: Type, events: Omit<WebhookEvent<Type>, 'type'>[]): Promise<void> {
    if (events.length === 0) return;
    const catalog = WEBHOOK_EVENT_TYPES[type];
    await this.events.appendMany(runner, scope, {
      type,
      version: catalog.version,
      emittedBy: this.emittedBy,
      headers: propagatedHeaders() ?? null,
      events: events.map((event) => ({ orderingKey: catalog.ordered ? event.subject : null, data: event.data })),
    });
    this.nudgeAfterCommit(runner, type);
  }

  /** A conversation event is streamed to sockets: the relay looks once the transaction committed. */
  private nudgeAfterCommit(runner: SqlRunner, type: WebhookEventType): void {
    if (isRealtimeEventType(type)) afterCommit(runner, 'outbox-nudge', () => this.nudges.committed());
  }
}
