import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { indexProblems, pagesOf } from './docs-index.mjs';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
const index = readFileSync(new URL('../../docs/README.md', import.meta.url), 'utf8');

describe('docs/README.md', () => {
  it('lists every page of docs/, and every link in it leads somewhere', () => {
    expect(pagesOf(docs)).toEqual(expect.arrayContaining(['quick-start.md', 'providers/sdks.md', 'protocols/processing-traces.openapi.yaml']));
    expect(indexProblems(index, pagesOf(docs), docs)).toEqual([]);
  });

  it('names a page missing from the index and a dead link', () => {
    const text = index.replace(/^- \[Team management\].*$/m, '- [Gone](gone.md): a page that was removed.');
    expect(indexProblems(text, pagesOf(docs), docs)).toEqual([
      'docs/team.md is not listed in docs/README.md: add one line for it under its readers',
      'docs/README.md links to gone.md, which does not exist',
    ]);
  });
});
