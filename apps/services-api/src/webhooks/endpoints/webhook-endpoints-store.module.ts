import { Module } from '@nestjs/common';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/**
 * The one WebhookEndpointsRepository of the app, for the endpoints' routes
 * and for the delivery engine and log, which read endpoints and keep their
 * delivery state through it: `webhook_endpoints` has one writer.
 */
@Module({ providers: [WebhookEndpointsRepository], exports: [WebhookEndpointsRepository] })
export class WebhookEndpointsStoreModule {}
