import { Inject, Injectable } from '@nestjs/common';
import { DueWorkLoop } from '@platform/scheduling';
import { PresenceEvents } from './presence-events';
import { PRESENCE_SETTINGS, PresenceSettings } from './presence-settings';
import { PresenceRepository } from './presence.repository';

/** Operators moved per transaction: a burst (a replica's sockets lapsing together) is worked through in rounds. */
const MOVES_PER_ROUND = 100;

/**
 * Keeps the status in effect in step with the operators' sockets
 * (docs/presence.md#the-reconciler): every PRESENCE_RECONCILE_POLL_MS, on
 * every replica, it moves the operators whose sockets connected, fell idle,
 * came back or lapsed past the grace, each under its row's lock (rows held
 * elsewhere are skipped: each move is made once, across replicas), with its
 * `operator.presenceChanged` event in the same transaction.
 */
@Injectable()
export class PresenceReconciler extends DueWorkLoop {
  constructor(
    private readonly presence: PresenceRepository,
    private readonly events: PresenceEvents,
    @Inject(PRESENCE_SETTINGS) private readonly settings: PresenceSettings,
  ) {
    super(settings.reconcilePollMs, 'presence reconciliation');
  }

  protected attemptDue(): Promise<boolean> {
    return this.presence.transaction(async (runner) => {
      await this.presence.ensureRowsForLiveLeases(runner, this.settings);
      const moved = await this.presence.moveDue(runner, this.settings, MOVES_PER_ROUND);
      await this.events.announce(runner, moved);
      return moved.length === MOVES_PER_ROUND;
    });
  }
}
