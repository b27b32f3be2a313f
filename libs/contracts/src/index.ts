export { defineMessage } from './message';
export type { MessageContract } from './message';
export { DeletePluginConnection, DeletePluginConnectionPayload } from './plugin-connections/delete-plugin-connection.message';
export type { DeletePluginConnectionReply } from './plugin-connections/delete-plugin-connection.message';
export { InstallPluginConnection, InstallPluginConnectionPayload } from './plugin-connections/install-plugin-connection.message';
export type { InstallPluginConnectionReply } from './plugin-connections/install-plugin-connection.message';
export { TransportPing, TransportPingPayload } from './transport-ping/transport-ping.message';
export type { TransportPingReply } from './transport-ping/transport-ping.message';
