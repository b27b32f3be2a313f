import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { TransportPing, TransportPingPayload, TransportPingReply } from '@platform/contracts';

@Controller()
export class TransportPingController {
  @MessagePattern(TransportPing.pattern)
  ping(@Payload() payload: TransportPingPayload): TransportPingReply {
    return { app: 'core-tenants', receivedAt: new Date().toISOString(), from: payload.from };
  }
}
