import { Module } from '@nestjs/common';
import { ContactSessionsController } from './contact-sessions.controller';
import { ContactSessionsRepository } from './contact-sessions.repository';
import { ListContactSessionsService } from './list-contact-sessions.service';

@Module({ controllers: [ContactSessionsController], providers: [ContactSessionsRepository, ListContactSessionsService] })
export class ContactSessionsModule {}
