import { Injectable } from '@nestjs/common';
import { NotificationFanoutsRepository } from './notification-fanouts.repository';

/**
 * Carries out the oldest notification fan-out (docs/conversations.md#notifications):
 * claimed, carried out and deleted in one transaction, so a failure half-way
 * leaves the fan-out to be done again later, whole, and a crash loses none.
 * False when none was due.
 */
@Injectable()
export class FanOutNotificationsUseCase {
  constructor(private readonly fanouts: NotificationFanoutsRepository) {}

  async execute(): Promise<boolean> {
    return this.fanouts.transaction(async (runner) => {
      const due = await this.fanouts.claim(runner);
      if (!due) return false;
      await this.fanouts.carryOut(runner, due);
      await this.fanouts.delete(runner, due.id);
      return true;
    });
  }
}
