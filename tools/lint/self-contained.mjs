// The repository stands alone: nothing in it may point at documents that are
// not in it. Fails (exit 1) on any mention, in a file git tracks (or would
// track: new files not ignored), of the four planning documents the code was
// first written against or of a sibling `shared` folder. A rule is cited by
// the docs/ page that holds it (docs/operations.md, docs/http-conventions.md,
// docs/errors.md...), or said where it applies.
//
//   node tools/lint/self-contained.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Spelled in pieces, so this file does not refuse itself.
const DOCUMENTS = ['SPEC', 'DESIGN', 'PROVIDERS', 'STYLE'];
const FOREIGN = new RegExp(`(?<![\\w.-])(?:${DOCUMENTS.join('|')})\\.md\\b|\\.\\.[/\\\\]shared\\b`, 'gi');

/** Every foreign reference of a text: `{line, column, text}`, 1-based, in order. */
export function foreignReferences(text) {
  const found = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(FOREIGN)) found.push({ line: index + 1, column: match.index + 1, text: match[0] });
  });
  return found;
}

/** Files of the repository at `root`: tracked ones, and new ones git does not ignore. */
export function repositoryFiles(root) {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return [...new Set(listed.split('\0').filter(Boolean))];
}

/** Problems of the files at `root` (relative paths), one line each: `path:line:column: text`. */
export function checkFiles(root, files) {
  const problems = [];
  for (const file of files) {
    const path = join(root, file);
    if (!existsSync(path)) continue; // deleted in the working tree, not yet in the index
    const content = readFileSync(path);
    if (content.includes(0)) continue; // binary
    for (const { line, column, text } of foreignReferences(content.toString('utf8'))) problems.push(`${file}:${line}:${column}: ${text}`);
  }
  return problems;
}

function main() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const problems = checkFiles(root, repositoryFiles(root));
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`self-contained: ${problems.length} reference(s) to documents outside the repository; cite the docs/ page that holds the rule, or state it in place`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
