import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { TransportPing, TransportPingPayload, TransportPingReply } from '@platform/contracts';
import { AnswerTransportPingUseCase } from './answer-transport-ping.use-case';

// Transport handlers, no HTTP route: their payloads are no part of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class TransportPingRpcController {
  constructor(private readonly answerPing: AnswerTransportPingUseCase) {}

  @MessagePattern(TransportPing.pattern)
  ping(@Payload() payload: TransportPingPayload): TransportPingReply {
    return this.answerPing.execute({ from: payload.from });
  }
}
