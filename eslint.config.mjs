import path from 'node:path';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries (docs/data-access.md; README, Architecture): apps never import each other, libs never
 * import apps, and each layer depends only on the layers below it.
 * scope:* says whose code it is; type:* says what kind of code it is.
 */
const typeRules = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
  { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
  { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:data-access', 'type:util'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contracts'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:util', 'type:contracts', 'type:test-doubles', 'type:test-support'] },
  // libs/test-support: a test database and the test Redis for repository specs, no app and no feature,
  // so the specs of any library may use it (libs/testing builds on it and on the features).
  { sourceTag: 'type:test-support', onlyDependOnLibsWithTags: ['type:data-access', 'type:util'] },
  // libs/testing-doubles: depends on no project, so the specs of any project may use it.
  { sourceTag: 'type:test-doubles', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:app', 'type:testing', 'type:test-support', 'type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:app', 'type:testing', 'type:test-support', 'type:feature', 'type:data-access', 'type:util', 'type:contracts'] },
];
const scopeRules = ['services-api', 'plugins-helpdesk', 'core-tenants', 'realtime-gateway'].map((scope) => ({
  sourceTag: `scope:${scope}`,
  onlyDependOnLibsWithTags: ['scope:shared', `scope:${scope}`],
}));

const boundaries = (allow, rules = typeRules) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    allow,
    depConstraints: [...rules, ...scopeRules],
  },
];

/** Any project's specs (and an app's test doubles) may use libs/testing-doubles and libs/test-support; its code may not. */
const specRules = typeRules.map((rule) => ({ ...rule, onlyDependOnLibsWithTags: [...new Set([...rule.onlyDependOnLibsWithTags, 'type:test-doubles', 'type:test-support'])] }));

/** An app's unit tests (and its test doubles) may also use libs/testing; its code may not. */
const unitTestRules = specRules.map((rule) =>
  rule.sourceTag === 'type:app' ? { ...rule, onlyDependOnLibsWithTags: [...rule.onlyDependOnLibsWithTags, 'type:testing'] } : rule,
);

/** A TenantScope proves an access check passed (docs/data-access.md#tenant-scope). */
const noTenantScopeCast = {
  selector: "TSAsExpression > TSTypeReference[typeName.name='TenantScope']",
  message: 'A TenantScope comes from an access check (TenantAccessService.require) or trustedTenantScope, never from a cast.',
};

/** A class with OpenAPI properties is a DTO, named by its role (docs/data-access.md#naming). */
const dtoSuffixByRole = {
  selector:
    'ClassDeclaration[id.name!=/(Body|Query|Params|Response|Dto|Data)$/]:has(Decorator[expression.callee.name=/^ApiProperty(Optional)?$/])',
  message: 'A DTO class ends in its role: Body, Query, Params, Response (the answer a route declares), Dto (an object inside one), or Data (a webhook event\'s data).',
};

/**
 * A repository hands its callers camelCase rows (docs/data-access.md#typed-sql): a snake_case field in
 * an exported row type, or in the return type of a public method or an exported function, is a column
 * name leaking out. Rows a repository maps before returning them stay unexported and may keep the columns' names.
 */
const SNAKE_CASE_KEY = 'key.name=/^[a-z][a-z0-9]*_[a-z0-9_]*$/';
const camelCaseRepositoryRows = {
  selector: [
    `ExportNamedDeclaration > TSInterfaceDeclaration TSPropertySignature[${SNAKE_CASE_KEY}]`,
    `ExportNamedDeclaration > TSTypeAliasDeclaration TSPropertySignature[${SNAKE_CASE_KEY}]`,
    `MethodDefinition[accessibility!='private'] > FunctionExpression > TSTypeAnnotation TSPropertySignature[${SNAKE_CASE_KEY}]`,
    `ExportNamedDeclaration > FunctionDeclaration > TSTypeAnnotation TSPropertySignature[${SNAKE_CASE_KEY}]`,
  ].join(', '),
  message: 'A repository returns camelCase rows: alias the column in the statement (tenant_id AS "tenantID") or map the row before returning it.',
};

/**
 * A row type is camelCase wherever it lives (docs/data-access.md#typed-sql): an exported type named
 * *Row or *Rows is shared between repositories, so it is what they hand on, however many files away from
 * the statement it is declared.
 */
const camelCaseRowTypes = {
  selector: [
    `ExportNamedDeclaration > TSInterfaceDeclaration[id.name=/Rows?$/] TSPropertySignature[${SNAKE_CASE_KEY}]`,
    `ExportNamedDeclaration > TSTypeAliasDeclaration[id.name=/Rows?$/] TSPropertySignature[${SNAKE_CASE_KEY}]`,
  ].join(', '),
  message: 'A row type is camelCase: alias the column in the statement (tenant_id AS "tenantID"), wherever the type is declared.',
};

/** Only access checks grant a TenantScope (docs/data-access.md#tenant-scope). */
const grantOnlyInAccessChecks = {
  name: '@platform/auth',
  importNames: ['grantTenantScope'],
  message: 'Only access checks grant a TenantScope; take it from TenantAccessService.require, or trustedTenantScope for a message or job.',
};

/** libs/auth authenticates and authorizes; the request budgets build on it (README, Libraries), never the other way. */
const noBudgetsInAuth = {
  name: '@platform/request-budgets',
  message: 'libs/auth tells the budgets what happened through its RequestCharges port; libs/request-budgets implements it.',
};

/** An app asks another over the transport through a port of its feature (docs/data-access.md#naming). */
const transportOnlyInClients = {
  name: '@platform/transport',
  importNames: ['TransportClient'],
  message: 'Call another app through a <thing>.client.ts port of the feature that wraps TransportClient.send(Pattern, payload).',
};

/**
 * The feature folders of services-api (apps/services-api/src/<feature>/) are its domains: a file
 * imports the files of its own folder, the app's root files (config.ts, exact-time-position.ts) and
 * the folders every feature shares, never another feature's. The conversation domain (docs/conversations.md#layout)
 * is one folder, so its parts reach each other and nothing else reaches into them.
 */
const SERVICES_API_SRC = 'apps/services-api/src/';
const SHARED_SERVICES_API_FOLDERS = ['jobs', 'mail'];
const featureFolders = {
  rules: {
    'no-sibling-feature-imports': {
      meta: { type: 'problem', schema: [], messages: { sibling: "{{from}}/ may not import {{to}}/: a feature imports its own folder, the app's root files and the shared folders ({{shared}}) only." } },
      create(context) {
        const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
        if (!file.startsWith(SERVICES_API_SRC)) return {};
        const featureOf = (relative) => (relative.includes('/') ? relative.split('/')[0] : undefined);
        const from = featureOf(file.slice(SERVICES_API_SRC.length));
        if (from === undefined) return {};
        const check = (node) => {
          const specifier = node.source?.value;
          if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
          if (!target.startsWith(SERVICES_API_SRC)) return;
          const relative = target.slice(SERVICES_API_SRC.length);
          const to = featureOf(relative);
          if (to === undefined || to === from) return;
          if (SHARED_SERVICES_API_FOLDERS.some((shared) => relative.startsWith(`${shared}/`))) return;
          context.report({ node: node.source, messageId: 'sibling', data: { from, to, shared: SHARED_SERVICES_API_FOLDERS.join(', ') } });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
      },
    },
  },
};

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
    rules: { '@nx/enforce-module-boundaries': boundaries(['@apps/core-tenants', '@apps/services-api', '@apps/plugins-helpdesk', '@apps/realtime-gateway', '@apps/operator-console']) },
  },
  {
    // Identifiers end in ID, never Id (docs/data-access.md#naming). The names
    // allowed are fields of formats we do not own: OpenAPI's operationId,
    // OpenTelemetry's traceId, spanId and parentSpanId, Fastify's genReqId.
    files: ['**/*.ts'],
    ignores: ['libs/api-client/src/generated/**'],
    rules: {
      '@typescript-eslint/naming-convention': [
        'error',
        {
          selector: 'default',
          format: null,
          filter: { regex: '^(operationIds?|traceId|spanId|parentSpanId|genReqId)$', match: false },
          custom: { regex: '[a-z0-9]Ids?$', match: false },
        },
      ],
    },
  },
  {
    // A TenantScope proves an access check passed (docs/data-access.md#tenant-scope):
    // only access-check code grants one, and nothing casts its way to one.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['libs/auth/src/**', 'apps/plugins-helpdesk/src/helpdesk-access/**', '**/*.spec.ts', '**/*.e2e-spec.ts', 'apps/*/test/**'],
    rules: {
      'no-restricted-syntax': ['error', noTenantScopeCast, dtoSuffixByRole, camelCaseRowTypes],
      'no-restricted-imports': ['error', { paths: [grantOnlyInAccessChecks] }],
    },
  },
  {
    // Access-check code may grant a TenantScope (above); its row types are still camelCase.
    files: ['libs/auth/src/**/*.ts', 'apps/plugins-helpdesk/src/helpdesk-access/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: { 'no-restricted-syntax': ['error', camelCaseRowTypes] },
  },
  {
    files: ['apps/**/*.repository.ts', 'libs/**/*.repository.ts'],
    ignores: ['libs/auth/src/**', 'apps/plugins-helpdesk/src/helpdesk-access/**'],
    rules: { 'no-restricted-syntax': ['error', noTenantScopeCast, dtoSuffixByRole, camelCaseRepositoryRows] },
  },
  {
    // Access-check code may grant a TenantScope (above); its repositories still return camelCase rows.
    files: ['libs/auth/src/**/*.repository.ts', 'apps/plugins-helpdesk/src/helpdesk-access/**/*.repository.ts'],
    rules: { 'no-restricted-syntax': ['error', camelCaseRepositoryRows] },
  },
  {
    files: ['libs/auth/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noBudgetsInAuth] }] },
  },
  {
    // An app's code reaches another app through its *.client.ts ports only.
    files: ['apps/*/src/**/*.ts'],
    ignores: ['apps/platform-e2e/**', 'apps/plugins-helpdesk/src/helpdesk-access/**', '**/*.client.ts', '**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [grantOnlyInAccessChecks, transportOnlyInClients] }] },
  },
  {
    files: ['apps/plugins-helpdesk/src/helpdesk-access/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [transportOnlyInClients] }] },
  },
  {
    files: ['apps/services-api/src/**/*.ts'],
    plugins: { 'feature-folders': featureFolders },
    rules: { 'feature-folders/no-sibling-feature-imports': 'error' },
  },
  {
    // An app's unit specs and its test doubles (apps/<app>/test/doubles, docs/testing.md#test-doubles).
    files: ['apps/*/src/**/*.spec.ts', 'apps/*/test/**/*.ts'],
    ignores: ['apps/platform-e2e/**'],
    rules: { '@nx/enforce-module-boundaries': boundaries([], unitTestRules) },
  },
  {
    // A library's specs cannot use libs/testing (it builds on them): they take their doubles from
    // libs/testing-doubles, and a test database or the test Redis from libs/test-support.
    files: ['libs/**/*.spec.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries([], specRules) },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'libs/testing/**/*.ts', 'libs/test-support/**/*.ts', 'apps/platform-e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Test doubles live outside src (docs/testing.md#test-doubles): whatever is under an app's
    // or a library's src/ may end up in a bundle. A double that imports libs/testing or
    // libs/testing-doubles from src/ already breaks the module boundaries; this catches the
    // ones named as doubles. libs/testing and libs/testing-doubles are the doubles' own home.
    files: ['apps/*/src/**/*.{fakes,fake,doubles,double,mocks,mock,stubs,stub}.ts', 'libs/**/src/**/*.{fakes,fake,doubles,double,mocks,mock,stubs,stub}.ts'],
    ignores: ['apps/platform-e2e/**', 'libs/testing/**', 'libs/testing-doubles/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Program', message: "A test double lives in apps/<app>/test/doubles/ (or libs/testing, libs/testing-doubles when shared), never under src/." },
      ],
    },
  },
];
