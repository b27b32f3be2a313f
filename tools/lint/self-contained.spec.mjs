import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFiles, foreignReferences, repositoryFiles } from './self-contained.mjs';

// Built from pieces, so this file passes the check it tests.
const md = (name) => `${name}.md`;
const shared = ['..', 'shared'].join('/');

describe('self-contained lint', () => {
  it.each([
    [`/** Operation 1 of ${md('SPEC')}. */`, md('SPEC')],
    [`// the order of ${md('DESIGN')} section 4`, md('DESIGN')],
    [` * limits (${md('PROVIDERS')}): body text`, md('PROVIDERS')],
    [`Module boundaries (${md('STYLE')})`, md('STYLE')],
    [`see docs/${md('style')}`, md('style')],
    [`import { x } from '${shared}/x';`, shared],
    [`cp ${shared.replace('/', '\\')}\\notes .`, shared.replace('/', '\\')],
  ])('finds the reference in %s', (line, text) => {
    expect(foreignReferences(`first line\n${line}\n`)).toEqual([{ line: 2, column: line.indexOf(text) + 1, text }]);
  });

  it.each([
    '/** Operation 1 (docs/operations.md). */',
    'tools/lint/table-ownership.spec.mjs and app.spec.md',
    'MY_SPEC.md_NOTES and docs/design-notes.md',
    'packages/shared-config and ../sharedwork',
    'the PROVIDERS table in docs/external-providers.md',
  ])('leaves %s alone', (line) => {
    expect(foreignReferences(line)).toEqual([]);
  });

  describe('on a repository', () => {
    let root;
    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'self-contained-'));
      const files = {
        'apps/a/src/a.controller.ts': `/** Operation 15 of ${md('SPEC')}. */\nexport class A {}\n`,
        'docs/b.md': `# B\n\nNothing foreign here.\n`,
        'notes/new.md': `Untracked, not ignored: see ${shared}/c.\n`,
        'ignored/d.md': `Ignored: ${md('DESIGN')}\n`,
        'image.bin': Buffer.from([0, 1, 2, ...Buffer.from(md('SPEC'))]),
        '.gitignore': 'ignored/\n',
      };
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), content);
      }
      execFileSync('git', ['init', '-q'], { cwd: root });
      execFileSync('git', ['add', 'apps', 'docs', 'image.bin', '.gitignore'], { cwd: root });
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('names every tracked or new file that points outside, and skips ignored and binary files', () => {
      expect(checkFiles(root, repositoryFiles(root)).sort()).toEqual([
        `apps/a/src/a.controller.ts:1:21: ${md('SPEC')}`,
        `notes/new.md:1:29: ${shared}`,
      ]);
    });
  });

  it('finds nothing in this repository', () => {
    const root = new URL('../..', import.meta.url).pathname;
    expect(checkFiles(root, repositoryFiles(root))).toEqual([]);
  });
});
