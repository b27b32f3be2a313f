import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { TransportPing, TransportPingPayload, TransportPingReply } from '@platform/contracts';

// Transport handlers, no HTTP route: their payloads are no part of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class TransportPingController {
  @MessagePattern(TransportPing.pattern)
  ping(@Payload() payload: TransportPingPayload): TransportPingReply {
    return { app: 'core-tenants', receivedAt: new Date().toISOString(), from: payload.from };
  }
}
