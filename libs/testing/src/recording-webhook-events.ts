import type { WebhookEvent, WebhookEvents } from '@platform/webhooks';
import { fake } from './doubles';

/** WebhookEvents for unit tests: keeps what a use case emitted, with the runner (transaction) it emitted in. */
export class RecordingWebhookEvents {
  readonly events: { runner: unknown; tenantID: string; event: WebhookEvent }[] = [];

  asEvents(): WebhookEvents {
    return fake<WebhookEvents>({
      emit: async (runner: unknown, scope: { tenantID: string }, event: WebhookEvent) => {
        this.events.push({ runner, tenantID: scope.tenantID, event });
      },
      emitMany: async (runner: unknown, scope: { tenantID: string }, type: WebhookEvent['type'], events: Omit<WebhookEvent, 'type'>[]) => {
        for (const event of events) this.events.push({ runner, tenantID: scope.tenantID, event: { type, ...event } as WebhookEvent });
      },
    });
  }

  /** The types emitted, in order. */
  types(): string[] {
    return this.events.map((entry) => entry.event.type);
  }
}
