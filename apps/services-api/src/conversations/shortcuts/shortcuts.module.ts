import { Module } from '@nestjs/common';
import { ListShortcutsUseCase } from './list-shortcuts.use-case';
import { ShortcutsController } from './shortcuts.controller';
import { ShortcutsRepository } from './shortcuts.repository';

@Module({ controllers: [ShortcutsController], providers: [ShortcutsRepository, ListShortcutsUseCase] })
export class ShortcutsModule {}
