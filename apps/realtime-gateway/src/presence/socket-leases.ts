import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { deleteInBatches } from '@platform/database';
import { OperatorSocketLeasesRepository } from './operator-socket-leases.repository';

export const LEASE_REFRESH_MS = Symbol('LEASE_REFRESH_MS');

/** Stale leases deleted per statement. */
const PURGE_BATCH = 500;

/** An operator socket this replica holds, as its lease knows it. */
interface HeldLease {
  tenantID: string;
  operatorID: string;
  /** The client's last activity (the connection, then each `activity` frame), on this replica's clock. */
  activityAtMs: number;
  /** The activity the lease row has, as far as this replica knows. */
  writtenActivityAtMs: number;
  /** The row exists: its insert succeeded (else it is tried again at the next refresh). */
  recorded: boolean;
  /** The insert under way: a close waits for it, so it never lands before the row exists. */
  recording?: Promise<void>;
}

/**
 * The leases of this replica's operator sockets (docs/presence.md#socket-leases):
 * a row when a socket opens, refreshed every PRESENCE_LEASE_REFRESH_SECONDS
 * with the client's last activity (one statement for all of them), stamped
 * when it closes. services-api derives each operator's status in effect from
 * them. A socket's own frames move its own lease only: the socket id is the
 * gateway's, never the client's.
 *
 * Writes that fail (PostgreSQL away) are not retried one by one: the next
 * refresh carries the state; a lease never recorded is inserted then; a
 * close that failed leaves the lease to lapse from its last refresh.
 */
@Injectable()
export class SocketLeases implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SocketLeases.name);
  private readonly held = new Map<string, HeldLease>();
  private readonly writes = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly leases: OperatorSocketLeasesRepository,
    @Inject(LEASE_REFRESH_MS) private readonly refreshMs: number,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  /** Waits for the writes under way (the closes of a drain among them) before the database pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.settled();
  }

  /** An operator socket opened: its lease starts now, as an activity. */
  opened(socketID: string, tenantID: string, operatorID: string): void {
    const now = Date.now();
    const lease: HeldLease = { tenantID, operatorID, activityAtMs: now, writtenActivityAtMs: now, recorded: false };
    this.held.set(socketID, lease);
    lease.recording = this.record(socketID, lease);
    this.track(lease.recording);
  }

  /**
   * The client showed activity. The lease carries it at the next refresh; at
   * once when what the row has is older than a refresh period (an operator
   * coming back after a while), so one socket writes at most about once per
   * period whatever it sends.
   */
  active(socketID: string): void {
    const lease = this.held.get(socketID);
    if (!lease) return;
    const now = Date.now();
    lease.activityAtMs = now;
    if (lease.recorded && now - lease.writtenActivityAtMs >= this.refreshMs) {
      lease.writtenActivityAtMs = now;
      this.track(this.leases.refresh([{ socketID, idleSeconds: 0 }]).catch((error: unknown) => this.logger.warn({ err: error }, 'socket lease activity not recorded')));
    }
  }

  /** An operator socket closed: its lease was last seen now. */
  closed(socketID: string): void {
    const lease = this.held.get(socketID);
    if (!lease) return;
    this.held.delete(socketID);
    const recorded = lease.recording ?? Promise.resolve();
    this.track(recorded.then(() => this.leases.close(socketID)).catch((error: unknown) => this.logger.warn({ err: error }, 'socket lease not closed; it lapses from its last refresh')));
  }

  /** One refresh of every lease held, and the purge of stale ones; never two at once. */
  refresh(): Promise<void> {
    this.refreshing ??= this.refreshAll()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'socket leases not refreshed'))
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async refreshAll(): Promise<void> {
    const now = Date.now();
    const unrecorded = [...this.held].filter(([, lease]) => !lease.recorded);
    await Promise.all(unrecorded.map(([socketID, lease]) => this.record(socketID, lease)));
    const recorded = [...this.held].filter(([, lease]) => lease.recorded);
    await this.leases.refresh(recorded.map(([socketID, lease]) => ({ socketID, idleSeconds: Math.max(0, (now - lease.activityAtMs) / 1000) })));
    for (const [, lease] of recorded) lease.writtenActivityAtMs = lease.activityAtMs;
    await deleteInBatches((limit) => this.leases.purgeStale(limit), PURGE_BATCH);
  }

  private async record(socketID: string, lease: HeldLease): Promise<void> {
    try {
      await this.leases.open(socketID, lease.tenantID, lease.operatorID);
      lease.recorded = true;
    } catch (error) {
      // A membership removed meanwhile fails the insert too: its socket is being closed (4403) anyway.
      this.logger.warn({ err: error }, 'socket lease not recorded; tried again at the next refresh');
    }
  }

  private track(write: Promise<void>): void {
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }

  /** Every write under way has finished. */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes]);
    await this.refreshing;
  }
}
