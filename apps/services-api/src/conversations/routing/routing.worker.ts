import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PeriodicSweep } from '@platform/database';
import { DueWorkLoop } from '@platform/scheduling';
import { CONVERSATIONS_SETTINGS, ConversationsSettings } from '../conversations-settings';
import { RouteTenantUseCase } from './route-tenant.use-case';
import { RoutingRequests } from './routing-requests';
import { RoutingRepository } from './routing.repository';

/** How long a claimed request stays with its replica: a replica that dies mid-pass leaves it due again after this. */
const CLAIM_LEASE_SECONDS = 60;
/** Passes of different tenants one replica runs at once; a tenant's own steps run one at a time under its lock anyway. */
const PASSES_AT_ONCE = 2;
/** A pass that failed (a deadlock PostgreSQL broke, a lost connection) is tried again this soon. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Runs the routing passes that `routing_requests` records (docs/conversations.md#routing):
 * claims a due tenant (`FOR UPDATE SKIP LOCKED`, with a lease), runs its pass,
 * and removes the request unless another came meanwhile. Nudged on this
 * replica once a change that requested a pass committed; polls every
 * ROUTING_POLL_MS for the rest (another replica's requests, a presence
 * change's trigger, a requeue limit coming due). The sweep, every
 * ROUTING_SWEEP_MS on every replica, requests a pass for each tenant that may
 * have work: the safety net should a request be lost.
 */
@Injectable()
export class RoutingWorker extends DueWorkLoop implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RoutingWorker.name);
  private readonly sweep = new PeriodicSweep(() => this.requestSweep());

  constructor(
    private readonly routing: RoutingRepository,
    private readonly route: RouteTenantUseCase,
    requests: RoutingRequests,
    @Inject(CONVERSATIONS_SETTINGS) private readonly settings: ConversationsSettings,
  ) {
    super(settings.routingPollMs, 'routing', PASSES_AT_ONCE);
    requests.onRequest(() => this.nudge());
  }

  override onApplicationBootstrap(): void {
    super.onApplicationBootstrap();
    this.sweep.start(this.settings.routingSweepMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweep.stop();
  }

  protected async attemptDue(): Promise<boolean> {
    const claimed = await this.routing.claim(CLAIM_LEASE_SECONDS);
    if (!claimed) return false;
    this.moreDue();
    let moreLeft: boolean;
    try {
      moreLeft = await this.route.execute(claimed.tenantID);
    } catch (error) {
      await this.routing.retrySoon(claimed.tenantID, RETRY_AFTER_SECONDS).catch(() => undefined);
      throw error;
    }
    await this.routing.finish(claimed.tenantID, claimed.generation, moreLeft);
    return true;
  }

  /** Requests a pass for every tenant that may have work, then looks at once. */
  async requestSweep(): Promise<void> {
    try {
      if ((await this.routing.requestSweep()) > 0) this.nudge();
    } catch (error) {
      this.logger.warn({ err: error }, 'routing sweep failed; retried at the next one');
    }
  }
}
