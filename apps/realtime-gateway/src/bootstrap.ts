import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { API_VERSION, ApiDocumentOptions, createHttpApp, httpSettingsOf, serversOf } from '@platform/http-common';
import { RealtimeGatewayConfig } from './config';
import { RealtimeGatewayModule } from './realtime-gateway.module';
import { RealtimeSockets } from './sockets/realtime-sockets';

/**
 * Builds the real-time gateway: an HTTP app (health, metrics) whose server's
 * upgrades open the sockets (docs/realtime.md). Not yet listening.
 */
export async function createRealtimeGatewayApp(config: RealtimeGatewayConfig): Promise<NestFastifyApplication> {
  const app = await createHttpApp(RealtimeGatewayModule.forRoot(config), { ...httpSettingsOf(config), openApi: REALTIME_GATEWAY_DOCUMENT, serveApiDocs: false });
  app.get(RealtimeSockets).attach(app.getHttpServer());
  return app;
}

const REALTIME_GATEWAY_DOCUMENT: ApiDocumentOptions = {
  title: 'Real-time gateway',
  version: API_VERSION,
  description: 'Health endpoints only; the sockets are described by docs/asyncapi/realtime-gateway.yaml.',
  servers: serversOf('realtime-gateway', 3003),
};

