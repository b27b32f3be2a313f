// docs/README.md is the index of docs/: every page (Markdown, and the
// protocol documents under docs/protocols/) is linked from it, and every
// link in it leads to a file that exists. The OpenAPI documents under
// docs/openapi/ are generated files, indexed by docs/openapi.md. Fails (exit
// 1) naming each page missing from the index and each dead link.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));
const INDEX = join(DOCS, 'README.md');

/** The pages the index must list, relative to docs/. */
export function pagesOf(docs) {
  return readdirSync(docs, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(docs, join(entry.parentPath, entry.name)))
    .filter((path) => path !== 'README.md' && !path.startsWith('openapi/') && (path.endsWith('.md') || path.startsWith('protocols/')))
    .sort();
}

/** The problems of an index's text, given the pages it must list and where it lives. */
export function indexProblems(text, pages, docs) {
  const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]);
  const linked = new Set(targets.map((target) => relative(docs, resolve(docs, target))));
  return [
    ...pages.filter((page) => !linked.has(page)).map((page) => `docs/${page} is not listed in docs/README.md: add one line for it under its readers`),
    ...targets.filter((target) => !existsSync(resolve(docs, target))).map((target) => `docs/README.md links to ${target}, which does not exist`),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = existsSync(INDEX) ? indexProblems(readFileSync(INDEX, 'utf8'), pagesOf(DOCS), dirname(INDEX)) : ['docs/README.md is missing'];
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
}
