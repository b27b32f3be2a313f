import 'reflect-metadata';
import { CoreTenantsConfig, describeCoreTenantsApi } from '@apps/core-tenants';
import { describePluginsHelpdeskApi, PluginsHelpdeskConfig } from '@apps/plugins-helpdesk';
import { describeServicesApi, ServicesApiConfig } from '@apps/services-api';
import { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@platform/config';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { API_VERSION } from '@platform/http-common';
import { OPENAPI_DIR, outOfDate } from './committed-files';
import { operationIdProblems, versionProblems } from './contract-rules';

/**
 * `npm run openapi` writes each app's OpenAPI document to docs/openapi/<app>.json;
 * `npm run openapi:check` (part of `npm run lint`) fails when a committed one
 * differs from what the code describes.
 *
 * The documents come from the apps' modules in Nest's preview mode: nothing is
 * connected to. The configuration is .env.example's, whatever this shell's
 * environment says, so the output depends on the code only. DATABASE_URL and
 * REDIS_URL must be present to validate and are never used.
 */
const environment: NodeJS.ProcessEnv = {
  ...parseEnv(readFileSync('.env.example', 'utf8')),
  DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
  REDIS_URL: 'redis://127.0.0.1:1/0',
};

const APPS: Record<string, () => Promise<OpenAPIObject>> = {
  'services-api': () => describeServicesApi(loadConfig(ServicesApiConfig, environment)),
  'plugins-helpdesk': () => describePluginsHelpdeskApi(loadConfig(PluginsHelpdeskConfig, environment)),
  'core-tenants': () => describeCoreTenantsApi(loadConfig(CoreTenantsConfig, environment)),
};

async function main(mode: string | undefined): Promise<void> {
  if (mode !== 'write' && mode !== 'check') throw new Error('usage: documents.js write|check');
  const documents: Record<string, OpenAPIObject> = {};
  for (const [app, describe] of Object.entries(APPS)) documents[app] = await describe();
  const problems = [
    ...operationIdProblems(documents),
    ...versionProblems(API_VERSION, documents, {
      'package.json': packageVersion('package.json'),
      'libs/api-client/package.json': packageVersion('libs/api-client/package.json'),
    }),
  ];
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n`);
    process.exit(1);
  }
  const stale: string[] = [];
  for (const [app, document] of Object.entries(documents)) {
    const path = `${OPENAPI_DIR}/${app}.json`;
    const text = `${JSON.stringify(document, null, 2)}\n`;
    if (mode === 'write') writeFileSync(path, text);
    else if (outOfDate(path, text)) stale.push(path);
  }
  if (stale.length > 0) {
    process.stderr.write(`Out of date: ${stale.join(', ')}. Run \`npm run openapi\` and commit the result.\n`);
    process.exit(1);
  }
}

function packageVersion(path: string): string | undefined {
  return (JSON.parse(readFileSync(path, 'utf8')) as { version?: string }).version;
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
