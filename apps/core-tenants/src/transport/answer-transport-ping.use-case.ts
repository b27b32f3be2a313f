import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/scheduling';
import type { TransportPingReply } from '@platform/contracts';

export interface AnswerTransportPingCommand {
  /** The app that sent the ping. */
  from: string;
}

/** Answers a transport ping: which app received it, when, and from whom. */
@Injectable()
export class AnswerTransportPingUseCase {
  constructor(private readonly clock: Clock) {}

  execute(command: AnswerTransportPingCommand): TransportPingReply {
    return { app: 'core-tenants', receivedAt: this.clock.now().toISOString(), from: command.from };
  }
}
