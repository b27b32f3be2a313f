/**
 * The version of the platform's HTTP APIs: `info.version` of the three OpenAPI
 * documents, and the version of the published client (libs/api-client). A
 * release tags `v<API_VERSION>`; a breaking change to a document raises the
 * major (docs/openapi.md). `npm run openapi:check` fails when package.json or
 * libs/api-client/package.json says otherwise.
 */
export const API_VERSION = '0.84.1';
