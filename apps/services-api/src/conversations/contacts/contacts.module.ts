import { Module } from '@nestjs/common';
import { ContactsController } from './contacts.controller';
import { ContactsRepository } from './contacts.repository';
import { ListContactsUseCase } from './list-contacts.use-case';

@Module({ controllers: [ContactsController], providers: [ContactsRepository, ListContactsUseCase] })
export class ContactsModule {}
