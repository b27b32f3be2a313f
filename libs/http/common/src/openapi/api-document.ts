import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { PathItemObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { documentErrorResponses } from './error-responses';

export interface ApiServer {
  url: string;
  description: string;
}

export interface ApiDocumentOptions {
  title: string;
  version: string;
  description: string;
  /** Where the app is reached: the local quick start first, then a deployment's address. */
  servers: ApiServer[];
  /** Extra security schemes the app documents, besides the operator bearer token. */
  describeSecurity?: (builder: DocumentBuilder) => DocumentBuilder;
  /**
   * The requests the app sends to its users' URLs (outbound webhooks), by
   * name, written under `x-webhooks`: OpenAPI 3.0 has no `webhooks` section
   * (3.1 has), and Redocly reads this extension as one. Their schemas must be
   * components of the document (`@ApiExtraModels`).
   */
  webhooks?: Record<string, PathItemObject>;
}

/** Where an app is reached: the local quick start's port, and its Service inside the cluster (k8s/, namespace platform). */
export function serversOf(service: string, port: number): ApiServer[] {
  return [
    { url: `http://127.0.0.1:${port}`, description: 'Local quick start (npm start)' },
    { url: `http://${service}.platform.svc:${port}`, description: 'Inside the Kubernetes cluster (k8s/)' },
  ];
}

/** What any request no operation answers gets, wherever it is sent (docs/errors.md). */
const UNROUTED_ANSWERS =
  '\n\nEvery error is answered in one envelope, `{"errors": [error]}`, listed per operation with its codes. ' +
  'A request no operation answers gets 404 1904, or 405 1905 with `Allow` when other methods answer its path.';

/**
 * The app's OpenAPI document, from its controllers: their routes, DTOs and
 * security, completed with every operation's error responses. The same
 * document is served at /openapi.json and committed under docs/openapi/.
 */
export function buildApiDocument(app: INestApplication, options: ApiDocumentOptions): OpenAPIObject {
  let builder = new DocumentBuilder()
    .setTitle(options.title)
    .setVersion(options.version)
    .setDescription(options.description + UNROUTED_ANSWERS)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Operator token from POST {core_url}/v1/operators/sign-in' }, 'operator');
  for (const server of options.servers) builder = builder.addServer(server.url, server.description);
  if (options.describeSecurity) builder = options.describeSecurity(builder);
  const document = SwaggerModule.createDocument(app, builder.build());
  documentErrorResponses(document);
  if (options.webhooks) Object.assign(document, { 'x-webhooks': options.webhooks });
  return document;
}

/**
 * The document of an app module without starting it: Nest's preview mode
 * resolves the module graph and the routes but instantiates no provider, so
 * no PostgreSQL, Redis or provider is needed (or connected to).
 */
export async function describeApi(rootModule: Parameters<typeof NestFactory.create>[0], options: ApiDocumentOptions): Promise<OpenAPIObject> {
  const app = await NestFactory.create(rootModule, new FastifyAdapter(), { preview: true, logger: false, abortOnError: false });
  try {
    return buildApiDocument(app, options);
  } finally {
    await app.close();
  }
}
