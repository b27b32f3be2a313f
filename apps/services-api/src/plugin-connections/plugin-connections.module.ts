import { Module } from '@nestjs/common';
import { DeletePluginConnectionUseCase } from './delete-plugin-connection.use-case';
import { InstallPluginConnectionUseCase } from './install-plugin-connection.use-case';
import { PluginConnectionsClient } from './plugin-connections.client';
import { PluginConnectionsController } from './plugin-connections.controller';

@Module({ controllers: [PluginConnectionsController], providers: [InstallPluginConnectionUseCase, DeletePluginConnectionUseCase, PluginConnectionsClient] })
export class PluginConnectionsModule {}
