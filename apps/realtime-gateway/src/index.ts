/** What other projects (the end-to-end suite, tools) may use of realtime-gateway. */
export { createRealtimeGatewayApp } from './bootstrap';
export { RealtimeGatewayConfig } from './config';
export { OutboxRelay } from './relay/outbox-relay';
export { RealtimeSockets } from './sockets/realtime-sockets';
