import { Global, Module } from '@nestjs/common';
import { AnswerTransportPingUseCase } from './answer-transport-ping.use-case';
import { HandledTransportRequestsRetention } from './handled-transport-requests-retention';
import { HandledTransportRequests } from './handled-transport-requests.repository';
import { TransportPingRpcController } from './transport-ping.rpc-controller';

/** The transport's own handlers, and the record of handled requests every writing handler joins to its transaction. */
@Global()
@Module({
  controllers: [TransportPingRpcController],
  providers: [AnswerTransportPingUseCase, HandledTransportRequests, HandledTransportRequestsRetention],
  exports: [HandledTransportRequests],
})
export class TransportModule {}
