import { Module } from '@nestjs/common';
import { IssueRealtimeTicketUseCase } from './issue-realtime-ticket.use-case';
import { RealtimeTicketsController } from './realtime-tickets.controller';

@Module({ controllers: [RealtimeTicketsController], providers: [IssueRealtimeTicketUseCase] })
export class RealtimeTicketsModule {}
