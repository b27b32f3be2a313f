import { IsUUID } from 'class-validator';
import { defineMessage } from '../message';

/** Installs a plugin on a tenant. The caller has checked that the operator owns the tenant. */
export class InstallPluginConnectionPayload {
  @IsUUID('all')
  tenantID!: string;

  @IsUUID('all')
  pluginID!: string;
}

export interface InstallPluginConnectionReply {
  pluginConnectionID: string;
  /** Shown once: only its hash is stored. */
  pluginConnectionToken: string;
  pluginID: string;
  kind: 'plain' | 'paid' | 'hosted';
}

export const InstallPluginConnection = defineMessage<InstallPluginConnectionPayload, InstallPluginConnectionReply>(
  'plugin-connections.install',
  InstallPluginConnectionPayload,
);
