import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { OPENAPI_DIR } from './committed-files';
import { unreleasableChanges } from './breaking-changes';

/**
 * `npm run openapi:check` (check) and `npm run openapi:release` (release).
 *
 * docs/openapi/released/<app>.json is each app's document as last released
 * (tag `v<version>`, docs/openapi.md). `check` compares every current document
 * with it and fails on a breaking change unless the current major version is
 * above the released one. `release` makes the current documents the released
 * ones, at release time. The snapshot is committed so the check needs nothing
 * but the files of any clone: no tag, no history, no network.
 */
const APPS = ['services-api', 'plugins-helpdesk', 'core-tenants'];
const RELEASED_DIR = `${OPENAPI_DIR}/released`;

function read(path: string): { info: { version: string } } {
  return JSON.parse(readFileSync(path, 'utf8'));
}

async function main(mode: string | undefined): Promise<void> {
  if (mode === 'release') {
    mkdirSync(RELEASED_DIR, { recursive: true });
    for (const app of APPS) copyFileSync(`${OPENAPI_DIR}/${app}.json`, `${RELEASED_DIR}/${app}.json`);
    return;
  }
  if (mode !== 'check') throw new Error('usage: released.js check|release');
  let failed = false;
  for (const app of APPS) {
    const released = read(`${RELEASED_DIR}/${app}.json`);
    const current = read(`${OPENAPI_DIR}/${app}.json`);
    const changes = await unreleasableChanges(released, current);
    if (changes.length === 0) continue;
    failed = true;
    process.stderr.write(
      `${app}: ${changes.length} breaking change(s) since the released ${released.info.version}, ` +
        `and the API version ${current.info.version} keeps its major:\n` +
        changes.map((change) => `  ${change.code}: ${change.where}\n`).join(''),
    );
  }
  if (failed) {
    process.stderr.write('Keep the old behaviour beside the new, or raise the major of API_VERSION (libs/http/common, docs/openapi.md).\n');
    process.exit(1);
  }
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
