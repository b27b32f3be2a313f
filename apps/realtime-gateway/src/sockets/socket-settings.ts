export const SOCKET_SETTINGS = Symbol('SOCKET_SETTINGS');

/** The limits of docs/realtime.md#limits, from the gateway's configuration. */
export interface SocketSettings {
  allowedOrigins: readonly string[];
  heartbeatMs: number;
  bufferLimitBytes: number;
  maxFrameBytes: number;
  maxFramesPer10s: number;
  maxSocketsPerPrincipal: number;
  maxSocketsPerTenant: number;
  drainJitterMs: number;
}
