import { Injectable } from '@nestjs/common';
import { PlatformMetrics } from '@platform/observability';
import { Subscriber } from './subscriber';

/** The sockets open on this replica, which the heartbeat, the revocation and the drain walk. */
@Injectable()
export class OpenSockets implements Iterable<Subscriber> {
  private readonly subscribers = new Set<Subscriber>();

  constructor(metrics: PlatformMetrics) {
    // What an autoscaler on connections reads (docs/metrics.md).
    metrics.addScrapeGauge({
      name: 'realtime_sockets',
      help: 'Sockets open on this replica, by kind of principal.',
      labelNames: ['principal'],
      read: () => {
        const counts = new Map<string, number>();
        for (const subscriber of this.subscribers) counts.set(subscriber.identity.principal.kind, (counts.get(subscriber.identity.principal.kind) ?? 0) + 1);
        return [...counts].map(([principal, value]) => ({ labels: { principal }, value }));
      },
    });
  }

  get size(): number {
    return this.subscribers.size;
  }

  add(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
  }

  delete(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
  }

  ofTenant(tenantID: string): Subscriber[] {
    return [...this.subscribers].filter((subscriber) => subscriber.identity.tenantID === tenantID);
  }

  [Symbol.iterator](): Iterator<Subscriber> {
    return this.subscribers[Symbol.iterator]();
  }
}
