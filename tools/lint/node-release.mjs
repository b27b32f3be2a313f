// The Node.js release the images run is written once, in .node-version: CI
// installs that release to run the tests, and the Dockerfile's default base
// image must name the same one. package.json's `engines.node` is the oldest
// release local development may use (a ">=major.minor" floor): the images'
// release must satisfy it, every installed package's own `engines.node` must
// accept it (the floor is where they all agree), and @types/node follows the
// floor's major, so the type check refuses an API that release lacks. Fails
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

const floor = /^>=(\d+)\.(\d+)$/.exec(manifest.engines?.node ?? '');
if (!floor) {
  console.error(`package.json's engines.node must be a floor such as ">=22.12", not "${manifest.engines?.node}"`);
  process.exit(1);
}
const [major, minor] = release.split('.').map(Number);
const [floorMajor, floorMinor] = [Number(floor[1]), Number(floor[2])];
if (major < floorMajor || (major === floorMajor && minor < floorMinor)) {
  console.error(`.node-version (${release}) is older than the engines floor (${manifest.engines.node})`);
  process.exit(1);
}
const typesMajor = /^(\d+)\./.exec(manifest.devDependencies?.['@types/node'] ?? '')?.[1];
if (Number(typesMajor) !== floorMajor) {
  console.error(`@types/node is ${manifest.devDependencies?.['@types/node']}, but the engines floor is Node.js ${floorMajor}: keep them on the same major`);
  process.exit(1);
}

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'));
const floorRelease = `${floorMajor}.${floorMinor}.0`;
const refusing = Object.entries(lock.packages)
  .filter(([path, entry]) => path !== '' && typeof entry.engines?.node === 'string' && !semver.satisfies(floorRelease, entry.engines.node))
  .map(([path, entry]) => `${path.replace(/^(.*\/)?node_modules\//, '')} (engines.node ${entry.engines.node})`);
if (refusing.length > 0) {
  console.error(`The engines floor ${manifest.engines.node} is older than these packages support; raise it:\n  ${[...new Set(refusing)].join('\n  ')}`);
  process.exit(1);
}
