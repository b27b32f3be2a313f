import { Global, Injectable, Module } from '@nestjs/common';
import type Redis from 'ioredis';

/** The Redis connections of one end of the transport (a client or a listener). */
export type TransportConnectionsSource = () => Redis[];

export interface TransportReadinessState {
  ready: boolean;
  /** Why not, when not ready. */
  reason?: string;
}

/**
 * Whether this app's transport can work right now: every Redis connection of
 * its client and listener is connected (subscriptions included; ioredis
 * restores them when a connection comes back). Readiness reports it, so a pod
 * whose transport cannot work stops taking traffic until it recovers.
 */
@Injectable()
export class TransportReadiness {
  private readonly sources: { name: string; connections: TransportConnectionsSource }[] = [];

  watch(name: string, connections: TransportConnectionsSource): void {
    this.sources.push({ name, connections });
  }

  /** Whether any end of the transport registered here (plugins-helpdesk has none, so readiness leaves it out). */
  get watched(): boolean {
    return this.sources.length > 0;
  }

  state(): TransportReadinessState {
    for (const source of this.sources) {
      const connections = source.connections();
      if (connections.length === 0) return { ready: false, reason: `${source.name} not connected yet` };
      const down = connections.find((connection) => connection.status !== 'ready');
      if (down) return { ready: false, reason: `${source.name} connection is ${down.status}` };
    }
    return { ready: true };
  }
}

/** Provides the one TransportReadiness of an app; the transport's ends register with it. */
@Global()
@Module({ providers: [TransportReadiness], exports: [TransportReadiness] })
export class TransportReadinessModule {}
