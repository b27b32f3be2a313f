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

  it('publishes every port on loopback from a COMPOSE_*_PORT variable, PostgreSQL and Redis away from their usual ports', () => {
    const { services } = parse(shipped, { merge: true });
    expect(services.postgres.ports).toEqual(['127.0.0.1:${COMPOSE_POSTGRES_PORT:-15432}:5432']);
    expect(services.redis.ports).toEqual(['127.0.0.1:${COMPOSE_REDIS_PORT:-16379}:6379']);
  });

  it('sends the mails of services-api to its mail sink', () => {
    const { services } = parse(shipped, { merge: true });
    expect(services['services-api'].environment.SMTP_URL).toBe('smtp://mailpit:1025');
    expect(services['services-api'].depends_on.mailpit).toEqual({ condition: 'service_healthy' });
    expect(services.mailpit.image).toMatch(/^axllent\/mailpit:v\d+\.\d+\.\d+$/);
  });

  it('refuses a fixed host port, one not on loopback, a default on a usual local port and two alike', () => {
    const text = changed(({ services }) => {
      services.postgres.ports = ['127.0.0.1:5432:5432'];
      services.redis.ports = ['${COMPOSE_REDIS_PORT:-16379}:6379'];
      services.mailpit.ports = ['127.0.0.1:${COMPOSE_MAIL_UI_PORT:-6379}:8025'];
      services['core-tenants'].ports = ['127.0.0.1:${COMPOSE_CORE_TENANTS_PORT:-3000}:3002'];
    });
    expect(checkComposeFile(text)).toEqual(
      expect.arrayContaining([
        '/services/postgres/ports/0: "127.0.0.1:5432:5432" must be "127.0.0.1:${COMPOSE_<NAME>_PORT:-<host port>}:<container port>"',
        '/services/redis/ports/0: "${COMPOSE_REDIS_PORT:-16379}:6379" must be "127.0.0.1:${COMPOSE_<NAME>_PORT:-<host port>}:<container port>"',
        "/services/mailpit/ports/0: host port 6379 is Redis's on a developer's machine; choose another default",
        "/services/services-api/ports/0: host port 3000 is also core-tenants's",
      ]),
    );
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
