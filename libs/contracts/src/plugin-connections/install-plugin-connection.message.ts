import { IsOptional, IsUUID, Matches } from 'class-validator';
import { defineMessage } from '../message';

/** Installs a plugin on a tenant. The caller has checked that the operator owns the tenant. */
export class InstallPluginConnectionPayload {
  @IsUUID('all')
  tenantID!: string;

  @IsUUID('all')
  pluginID!: string;

  /**
   * The client's `Idempotency-Key`, scoped to who sent it (SHA-256 hex of the
   * actor and the key), when one was sent: a retry under the same key then
   * reuses the same install intent and provider idempotency keys.
   */
  @IsOptional()
  @Matches(/^[0-9a-f]{64}$/)
  requestKey?: string;
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
