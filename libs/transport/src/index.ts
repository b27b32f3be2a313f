export { ExactlyOnceRedisServer } from './exactly-once-redis.server';
export { exactlyOnceRedisListener, redisTransportOptions } from './redis-transport';
export { isRpcErrorPayload, toRpcErrorPayload } from './rpc-error';
export type { RpcErrorPayload } from './rpc-error';
export { RpcErrorFilter, RpcValidationPipe } from './rpc-server';
export { TransportClient } from './transport-client';
export { TransportClientModule } from './transport-client.module';
