import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

/** The Fastify route config flag `NoStore` sets, read by the app's onSend hook (http-app.ts). */
interface NoStoreConfig {
  noStore?: true;
}

/**
 * Marks a route whose answer carries a credential or a ticket (a token, a
 * secret, a real-time ticket): every answer it gives, a replayed one too,
 * is sent with `Cache-Control: no-store`, so no browser, proxy or client
 * cache keeps it (docs/http-conventions.md, Caching).
 */
export function NoStore(): MethodDecorator {
  return applyDecorators(RouteConfig({ noStore: true } satisfies NoStoreConfig));
}

export const NO_STORE = 'no-store';

/** Whether the request's route is marked `NoStore`. */
export function isNoStoreRoute(request: FastifyRequest): boolean {
  return (request.routeOptions.config as NoStoreConfig | undefined)?.noStore === true;
}
