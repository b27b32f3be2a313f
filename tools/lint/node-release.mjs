// The Node.js release the images run is written once, in .node-version: CI
// installs that release to run the tests, and the Dockerfile's default base
// image must name the same one. Fails (exit 1) when the two disagree.
import { readFileSync } from 'node:fs';

const release = readFileSync(new URL('../../.node-version', import.meta.url), 'utf8').trim();
const dockerfile = readFileSync(new URL('../../docker/Dockerfile', import.meta.url), 'utf8');
const image = /^ARG NODE_IMAGE=node:([^\s-@]+)/m.exec(dockerfile)?.[1];

if (!/^\d+\.\d+\.\d+$/.test(release)) {
  console.error(`.node-version must hold one exact release such as 24.21.0, not "${release}"`);
  process.exit(1);
}
if (image !== release) {
  console.error(`docker/Dockerfile's NODE_IMAGE is node:${image ?? '?'}, but .node-version says ${release}: change both together`);
  process.exit(1);
}
