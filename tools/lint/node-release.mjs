// The Node.js release the images run is written once, in .node-version: CI
// installs that release to run the tests, and the Dockerfile's default base
// image must name the same one. package.json's `engines.node` is the releases
// local development may use (`^X.Y.Z` and `>=X.Y.Z` joined by `||`, what
// tools/support/supported-node.mjs reads): the images' release must satisfy
// it, every installed package's own `engines.node` must accept the lowest
// release of each of its ranges (where they all agree), and @types/node
// follows the oldest major, so the type check refuses an API it lacks. Fails
// (exit 1) on any disagreement.
import { readFileSync } from 'node:fs';
import semver from 'semver';

const release = readFileSync(new URL('../../.node-version', import.meta.url), 'utf8').trim();
const dockerfile = readFileSync(new URL('../../docker/Dockerfile', import.meta.url), 'utf8');
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const image = /^ARG NODE_IMAGE=node:([^\s-@]+)/m.exec(dockerfile)?.[1];

if (!/^\d+\.\d+\.\d+$/.test(release)) {
  console.error(`.node-version must hold one exact release such as 24.21.0, not "${release}"`);
  process.exit(1);
}
if (image !== release) {
  console.error(`docker/Dockerfile's NODE_IMAGE is node:${image ?? '?'}, but .node-version says ${release}: change both together`);
  process.exit(1);
}

// "^22.15.0 || ^24.11.0 || >=26.0.0": the only forms tools/support/supported-node.mjs reads.
const parts = (manifest.engines?.node ?? '').split('||').map((part) => part.trim());
if (!parts.every((part) => /^(\^|>=)\d+\.\d+\.\d+$/.test(part))) {
  console.error(`package.json's engines.node must be ^X.Y.Z or >=X.Y.Z ranges joined by ||, such as "^22.15.0 || >=24.11.0", not "${manifest.engines?.node}"`);
  process.exit(1);
}
const lowest = parts.map((part) => part.replace(/^\^|^>=/, ''));
if (!semver.satisfies(release, manifest.engines.node)) {
  console.error(`.node-version (${release}) is not a release the engines range (${manifest.engines.node}) accepts`);
  process.exit(1);
}
const floorMajor = Math.min(...lowest.map((part) => semver.major(part)));
const typesMajor = /^(\d+)\./.exec(manifest.devDependencies?.['@types/node'] ?? '')?.[1];
if (Number(typesMajor) !== floorMajor) {
  console.error(`@types/node is ${manifest.devDependencies?.['@types/node']}, but the engines floor is Node.js ${floorMajor}: keep them on the same major`);
  process.exit(1);
}

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'));
// Each range's lowest release must be one every package accepts: otherwise a range starts too early.
const refusing = lowest.flatMap((floorRelease) =>
  Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && typeof entry.engines?.node === 'string' && !semver.satisfies(floorRelease, entry.engines.node))
    .map(([path, entry]) => `${floorRelease}: ${path.replace(/^(.*\/)?node_modules\//, '')} (engines.node ${entry.engines.node})`),
);
if (refusing.length > 0) {
  console.error(`The engines range ${manifest.engines.node} starts earlier than these packages support; raise it:\n  ${[...new Set(refusing)].join('\n  ')}`);
  process.exit(1);
}
