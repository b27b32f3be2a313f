import { createCoreTenantsClient, createServicesApiClient, type CoreTenantsClient, type ErrorEnvelope, type ServicesApiClient } from '@platform/api-client';
import type { ConsoleConfig } from '../config';

/** An answer of the platform in its error envelope (docs/errors.md): what the console shows is its message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The typed clients of the committed OpenAPI documents (libs/api-client), each request with the operator's token. */
export interface PlatformApi {
  core: CoreTenantsClient;
  services: ServicesApiClient;
}

/** The token lives in this closure only: never in storage, never in a URL. */
export function createPlatformApi(config: ConsoleConfig, token: () => string | undefined): PlatformApi {
  const authorize = {
    onRequest({ request }: { request: Request }) {
      const current = token();
      if (current) request.headers.set('authorization', `Bearer ${current}`);
      return request;
    },
  };
  const core = createCoreTenantsClient(config.coreTenantsUrl);
  const services = createServicesApiClient(config.servicesApiUrl);
  core.use(authorize);
  services.use(authorize);
  return { core, services };
}

/** What openapi-fetch answers: data on success, the envelope otherwise. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's data, or an ApiError with the first error's message of the envelope. */
export async function dataOf<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, undefined, 'The platform could not be reached. Check your connection and try again.');
  }
  if (answer.response.ok && answer.data !== undefined) return answer.data;
  const first = (answer.error as ErrorEnvelope | undefined)?.errors?.[0];
  throw new ApiError(answer.response.status, first?.error_code, first?.message ?? `The platform answered ${answer.response.status}.`);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
