/** What other projects (the end-to-end suite, tools) may use of realtime-gateway. */
export { createRealtimeGatewayApp } from './bootstrap';
export { RealtimeGatewayConfig } from './config';
export { OutboxRelay } from './relay/outbox-relay';
export { RealtimeSockets } from './sockets/realtime-sockets';
export { CLIENT_FRAME_SCHEMAS, CLOSE_CODE_MEANINGS, REALTIME_PATH, SERVER_FRAME_SCHEMAS } from './sockets/frame-schemas';
