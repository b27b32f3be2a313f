import { Module } from '@nestjs/common';
import { DeletePluginConnectionUseCase } from './delete-plugin-connection.use-case';
import { InstallPluginConnectionUseCase } from './install-plugin-connection.use-case';
import { ListPluginConnectionsUseCase } from './list-plugin-connections.use-case';
import { PluginConnectionReadsRepository } from './plugin-connection-reads.repository';
import { PluginConnectionsClient } from './plugin-connections.client';
import { PluginConnectionsController } from './plugin-connections.controller';

@Module({
  controllers: [PluginConnectionsController],
  providers: [InstallPluginConnectionUseCase, DeletePluginConnectionUseCase, ListPluginConnectionsUseCase, PluginConnectionReadsRepository, PluginConnectionsClient],
})
export class PluginConnectionsModule {}
