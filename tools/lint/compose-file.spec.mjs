import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkComposeFile } from './compose-file.mjs';

const shipped = readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8');
/** compose.yaml, anchors resolved, changed by `change`, as text again. */
const changed = (change) => {
  const compose = parse(shipped, { merge: true });
  change(compose);
  return stringify(compose);
};

describe('compose.yaml', () => {
  it('is valid against the Compose specification, its dependencies exist and its pulled images are pinned', () => {
    expect(checkComposeFile(shipped)).toEqual([]);
  });

  it('runs the migrations once PostgreSQL is healthy, and the apps after them and Redis', () => {
    const { services } = parse(shipped, { merge: true });
    expect(services.migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const app of ['core-tenants', 'services-api', 'plugins-helpdesk']) {
      expect(services[app].depends_on).toMatchObject({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
      expect(services[app].build).toMatchObject({ context: '.', dockerfile: 'docker/Dockerfile', target: `app-${app}`, args: { APP: app } });
      expect(services[app].healthcheck.test.join(' ')).toContain('/health/ready');
    }
  });

  it('refuses what the specification does not know, a malformed duration or port, a missing dependency and an unpinned image', () => {
    const text = changed(({ services }) => {
      services.redis.restart_policy = 'always';
      services.redis.healthcheck.interval = '5 seconds';
      services.redis.ports = ['127.0.0.1:6379:6379:6379'];
      services.redis.image = 'redis:latest';
      services.migrate.depends_on.database = { condition: 'service_healthy' };
    });
    expect(checkComposeFile(text)).toEqual(
      expect.arrayContaining([
        '/services/redis: must NOT have additional properties (restart_policy)',
        '/services/redis/healthcheck/interval: must match format "duration"',
        expect.stringMatching(/^\/services\/redis\/ports\/0: must match format "ports"/),
        '/services/migrate/depends_on: database is not a service',
        '/services/redis/image: redis:latest is not pinned to a version',
      ]),
    );
  });
});
