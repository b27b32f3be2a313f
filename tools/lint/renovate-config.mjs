// renovate.json must parse, and keep the rules the repository relies on:
// exact versions (package.json pins every dependency), the engines floor left
// alone, and no automerge beyond a devDependency's patch release. Renovate's
// own validator (renovate-config-validator) checks the schema; this checks
// our choices, without installing Renovate. Fails (exit 1) on a breach.
import { readFileSync } from 'node:fs';

const file = new URL('../../renovate.json', import.meta.url);
let config;
try {
  config = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.error(`renovate.json does not parse: ${error.message}`);
  process.exit(1);
}

const problems = [];
const rules = config.packageRules ?? [];
if (config.rangeStrategy !== 'pin') problems.push('rangeStrategy must be "pin": dependencies are exact versions');
if (config.automerge) problems.push('automerge must not be on for every update');
if (!rules.some((rule) => rule.matchDepTypes?.includes('engines') && rule.enabled === false)) {
  problems.push('a rule must disable updates of "engines" (the Node.js floor is raised on purpose only)');
}
for (const rule of rules.filter((rule) => rule.automerge)) {
  const devOnly = rule.matchDepTypes?.length === 1 && rule.matchDepTypes[0] === 'devDependencies';
  const patchOnly = rule.matchUpdateTypes?.length === 1 && rule.matchUpdateTypes[0] === 'patch';
  if (!devOnly || !patchOnly) problems.push(`automerge is for devDependencies' patch releases only: ${JSON.stringify(rule)}`);
}
if (!config.schedule?.length) problems.push('updates come on a schedule (weekly)');

if (problems.length > 0) {
  console.error(`renovate.json:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
