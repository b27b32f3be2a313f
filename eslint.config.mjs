import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries (STYLE.md): apps never import each other, libs never
 * import apps, and each layer depends only on the layers below it.
 * scope:* says whose code it is; type:* says what kind of code it is.
 */
const typeRules = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
  { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
  { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:data-access', 'type:util'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contracts'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:app', 'type:testing', 'type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:app', 'type:testing', 'type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
];
const scopeRules = ['services-api', 'plugins-helpdesk', 'core-tenants'].map((scope) => ({
  sourceTag: `scope:${scope}`,
  onlyDependOnLibsWithTags: ['scope:shared', `scope:${scope}`],
}));

const boundaries = (allow) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    allow,
    depConstraints: [...typeRules, ...scopeRules],
  },
];

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', '**/tmp/**', '**/coverage/**'] },
  ...nx.configs['flat/base'],
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries([]),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // The end-to-end suite and the tools boot the apps in-process through
    // each app's public index (apps/*/src/index.ts); nothing else may.
    files: ['apps/platform-e2e/**/*.ts', 'tools/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(['@apps/core-tenants', '@apps/services-api', '@apps/plugins-helpdesk']) },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'libs/testing/**/*.ts', 'apps/platform-e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
