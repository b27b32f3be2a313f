import { Module } from '@nestjs/common';
import { ListShortcutsService } from './list-shortcuts.service';
import { ShortcutsController } from './shortcuts.controller';
import { ShortcutsRepository } from './shortcuts.repository';

@Module({ controllers: [ShortcutsController], providers: [ShortcutsRepository, ListShortcutsService] })
export class ShortcutsModule {}
