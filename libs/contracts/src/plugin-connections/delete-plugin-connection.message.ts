import { IsUUID } from 'class-validator';
import { defineMessage } from '../message';

/** Removes a live connection of a tenant (operation 1, docs/plugin-connections.md). The caller has checked ownership. */
export class DeletePluginConnectionPayload {
  @IsUUID('all')
  tenantID!: string;

  @IsUUID('all')
  pluginConnectionID!: string;
}

export interface DeletePluginConnectionReply {
  deleted: true;
}

export const DeletePluginConnection = defineMessage<DeletePluginConnectionPayload, DeletePluginConnectionReply>(
  'plugin-connections.delete',
  DeletePluginConnectionPayload,
);
