import { Module } from '@nestjs/common';
import { PluginConnectionsController } from './plugin-connections.controller';

@Module({ controllers: [PluginConnectionsController] })
export class PluginConnectionsModule {}
