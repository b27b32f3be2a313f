import { Injectable } from '@nestjs/common';
import {
  DeletePluginConnection,
  DeletePluginConnectionPayload,
  DeletePluginConnectionReply,
  InstallPluginConnection,
  InstallPluginConnectionPayload,
  InstallPluginConnectionReply,
} from '@platform/contracts';
import { TransportClient } from '@platform/transport';

/**
 * Plugin connections belong to core-tenants, which alone writes them and
 * calls the billing and VM providers (docs/data-access.md#table-ownership):
 * services-api asks it over the transport. Its catalog errors come back as
 * they are; no answer in time is 504 5904.
 */
@Injectable()
export class PluginConnectionsClient {
  constructor(private readonly transport: TransportClient) {}

  install(request: InstallPluginConnectionPayload): Promise<InstallPluginConnectionReply> {
    return this.transport.send(InstallPluginConnection, request);
  }

  delete(request: DeletePluginConnectionPayload): Promise<DeletePluginConnectionReply> {
    return this.transport.send(DeletePluginConnection, request);
  }
}
