import { Injectable } from '@nestjs/common';
import { trustedTenantScope } from '@platform/auth';
import { NotificationCountEvents } from './notification-count-events';
import { NotificationFanoutsRepository } from './notification-fanouts.repository';

/**
 * Carries out the oldest notification fan-out (docs/conversations.md#notifications):
 * claimed, carried out and deleted in one transaction, so a failure half-way
 * leaves the fan-out to be done again later, whole, and a crash loses none.
 * The `notifications.counts` events of every operator it moved are appended
 * in the same transaction (one statement for them all). False when none
 * was due.
 */
@Injectable()
export class FanOutNotificationsUseCase {
  constructor(
    private readonly fanouts: NotificationFanoutsRepository,
    private readonly countEvents: NotificationCountEvents,
  ) {}

  async execute(): Promise<boolean> {
    return this.fanouts.transaction(async (runner) => {
      const due = await this.fanouts.claim(runner);
      if (!due) return false;
      const moved = await this.fanouts.carryOut(runner, due);
      // The fan-out was recorded by a change of this tenant, checked then: the scope comes from its row.
      await this.countEvents.announce(runner, trustedTenantScope(due.tenantID), moved);
      await this.fanouts.delete(runner, due.id);
      return true;
    });
  }
}
