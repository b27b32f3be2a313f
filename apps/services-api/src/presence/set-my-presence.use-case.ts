import { Inject, Injectable } from '@nestjs/common';
import { OperatorPrincipal, TenantAccessService } from '@platform/auth';
import type { MyPresenceDto } from './presence.dto';
import { PresenceEvents } from './presence-events';
import { PRESENCE_SETTINGS, PresenceSettings } from './presence-settings';
import { effectivePresence, PresenceStatus } from './presence-status';
import { PresenceRepository } from './presence.repository';
import { myPresenceOf } from './get-my-presence.use-case';

export interface SetMyPresenceCommand {
  principal: OperatorPrincipal;
  tenantID: string;
  status: PresenceStatus;
}

/**
 * The operator chooses a status (docs/presence.md#rules): recorded, and the
 * status in effect worked out again from their sockets, under the row's
 * lock, in one transaction with its `operator.presenceChanged` event when it
 * moved. Choosing what is in effect already changes nothing else.
 */
@Injectable()
export class SetMyPresenceUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly presence: PresenceRepository,
    private readonly events: PresenceEvents,
    @Inject(PRESENCE_SETTINGS) private readonly settings: PresenceSettings,
  ) {}

  async execute(command: SetMyPresenceCommand): Promise<MyPresenceDto> {
    const scope = await this.access.require(command.principal, command.tenantID, { tenantNotFoundIs404: true });
    const operatorID = command.principal.operatorID;
    const row = await this.presence.transaction(async (runner) => {
      const chosen = await this.presence.choose(runner, scope, operatorID, command.status);
      const facts = await this.presence.socketFacts(runner, scope, operatorID, this.settings);
      const effective = effectivePresence(chosen.chosenStatus, facts);
      if (effective === chosen.status) return chosen;
      const moved = await this.presence.setStatus(runner, scope, operatorID, effective);
      await this.events.announce(runner, [moved]);
      return moved;
    });
    return myPresenceOf(operatorID, row);
  }
}
