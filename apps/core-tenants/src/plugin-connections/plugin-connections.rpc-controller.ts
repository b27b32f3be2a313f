import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { trustedTenantScope } from '@platform/auth';
import {
  DeletePluginConnection,
  DeletePluginConnectionPayload,
  DeletePluginConnectionReply,
  InstallPluginConnection,
  InstallPluginConnectionPayload,
  InstallPluginConnectionReply,
} from '@platform/contracts';
import { DeletePluginConnectionUseCase } from './delete-plugin-connection.use-case';
import { InstallPluginConnectionUseCase } from './install-plugin-connection.use-case';

/** Plugin connections over the transport: services-api has already checked who may ask. */
// Transport handlers, no HTTP route: their payloads are no part of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class PluginConnectionsRpcController {
  constructor(
    private readonly install: InstallPluginConnectionUseCase,
    private readonly remove: DeletePluginConnectionUseCase,
  ) {}

  @MessagePattern(InstallPluginConnection.pattern)
  installConnection(@Payload() payload: InstallPluginConnectionPayload): Promise<InstallPluginConnectionReply> {
    return this.install.execute({ scope: trustedTenantScope(payload.tenantID), pluginID: payload.pluginID, requestKey: payload.requestKey });
  }

  @MessagePattern(DeletePluginConnection.pattern)
  deleteConnection(@Payload() payload: DeletePluginConnectionPayload): Promise<DeletePluginConnectionReply> {
    return this.remove.execute({ scope: trustedTenantScope(payload.tenantID), pluginConnectionID: payload.pluginConnectionID });
  }
}
