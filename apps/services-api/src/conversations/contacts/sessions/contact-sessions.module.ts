import { Module } from '@nestjs/common';
import { ContactSessionsController } from './contact-sessions.controller';
import { ContactSessionsRepository } from './contact-sessions.repository';
import { ListContactSessionsUseCase } from './list-contact-sessions.use-case';

@Module({ controllers: [ContactSessionsController], providers: [ContactSessionsRepository, ListContactSessionsUseCase] })
export class ContactSessionsModule {}
