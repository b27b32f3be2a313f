import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID } from 'class-validator';
import { defineMessage } from '../message';

/** How many plugins one request may name (a tenant's trace providers, in one batch). */
export const MAX_TRACE_TOKEN_PLUGINS = 50;

/**
 * Asks core-tenants, which alone holds the signing key, for the credentials
 * services-api sends to processing-trace providers: one short-lived JWT per
 * plugin, naming the tenant and the session (docs/processing-traces.md). The
 * caller has checked that the session belongs to the tenant.
 */
export class IssueTraceTokensPayload {
  @IsUUID('all')
  tenantID!: string;

  @IsUUID('all')
  sessionID!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TRACE_TOKEN_PLUGINS)
  @IsUUID('all', { each: true })
  pluginIDs!: string[];
}

export interface IssuedTraceToken {
  pluginID: string;
  token: string;
  expiresInSeconds: number;
}

/** Tokens of the named plugins that are trace providers installed on the tenant; the others are left out. */
export interface IssueTraceTokensReply {
  tokens: IssuedTraceToken[];
}

export const IssueTraceTokens = defineMessage<IssueTraceTokensPayload, IssueTraceTokensReply>('trace-tokens.issue', IssueTraceTokensPayload);
