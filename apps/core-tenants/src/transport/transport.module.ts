import { Module } from '@nestjs/common';
import { AnswerTransportPingUseCase } from './answer-transport-ping.use-case';
import { TransportPingRpcController } from './transport-ping.rpc-controller';

@Module({ controllers: [TransportPingRpcController], providers: [AnswerTransportPingUseCase] })
export class TransportModule {}
