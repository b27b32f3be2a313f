// Run first by `npm start`, `npm test`, `npm run db:migrate` and
// `npm run demo:seed`: on a Node.js release package.json's `engines.node` does
// not accept, one line that names the releases we support and how to get one,
// then exit 1, before any build, database or test work. (`npm install` and
// `npm ci` refuse such a release themselves: `engine-strict` in .npmrc.)
//
// Plain JavaScript with no dependency, so it runs on any Node.js, with or
// without node_modules. `engines.node` is kept to comparators this reads,
// `^X.Y.Z` and `>=X.Y.Z` joined by `||` (tools/lint/node-release.mjs checks
// that, and that every installed package accepts each range's lowest release).
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const wanted = manifest.engines.node;
const current = process.versions.node.split('.').map(Number);
const recommended = readFileSync(new URL('../../.node-version', import.meta.url), 'utf8').trim();

/** Whether release `[major, minor, patch]` is at least `floor`. */
const atLeast = (release, floor) => {
  for (let index = 0; index < 3; index += 1) if (release[index] !== floor[index]) return release[index] > floor[index];
  return true;
};

const accepts = (range, release) =>
  range.split('||').some((part) => {
    const match = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`package.json's engines.node part "${part.trim()}" is not ^X.Y.Z or >=X.Y.Z`);
    const floor = [Number(match[2]), Number(match[3]), Number(match[4])];
    return atLeast(release, floor) && (match[1] === '>=' || release[0] === floor[0]);
  });

/** "^22.15.0 || >=26.0.0" as "22.15.0 or a later 22, or 26.0.0 and later". */
const spoken = (range) =>
  range
    .split('||')
    .map((part) => part.trim().replace(/^\^((\d+)\.\S+)$/, '$1 or a later $2').replace(/^>=(\S+)$/, '$1 and later'))
    .join(', or ');

if (!accepts(wanted, current)) {
  process.stderr.write(
    `Node.js ${process.version} is not supported: this project needs Node.js ${spoken(wanted)} ` +
      `(${recommended}, in .node-version, is what CI and the images run; e.g. \`nvm install ${recommended}\` or \`fnm install ${recommended}\`).\n`,
  );
  process.exit(1);
}
