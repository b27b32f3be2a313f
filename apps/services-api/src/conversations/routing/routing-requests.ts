import { Injectable } from '@nestjs/common';
import { afterCommit, SqlRunner } from '@platform/database';
import { RoutingRepository } from './routing.repository';

/**
 * Asks for a routing pass of a tenant, in the transaction of the change that
 * may let a session be assigned (a session queued, closed or transferred, a
 * policy stored): the request row commits with the change, and once it
 * committed the replica's routing loop looks at once. Other replicas find
 * the row at their next poll.
 */
@Injectable()
export class RoutingRequests {
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly routing: RoutingRepository) {}

  async request(runner: SqlRunner, tenantID: string): Promise<void> {
    if (await this.routing.request(runner, tenantID)) afterCommit(runner, 'routing-request', () => this.announce());
  }

  /** The routing loop listens (it depends on what records requests, so it cannot be injected here). */
  onRequest(listener: () => void): void {
    this.listeners.push(listener);
  }

  announce(): void {
    for (const listener of this.listeners) listener();
  }
}
