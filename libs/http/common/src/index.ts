export { API_REFERENCE_PATH, createHttpApp, listenUntilStopped, OPENAPI_JSON_PATH } from './http-app';
export type { HttpAppOptions } from './http-app';
export type { CorsPolicy } from './cors';
export { httpSettingsOf } from './http-settings';
export {
  DEFAULT_PER_PAGE,
  ListMetaDto,
  listMeta,
  MAX_PAGE,
  offsetOf,
  pageOffsetOf,
  pageRequestOf,
  pageStatus,
  PaginationQuery,
  SessionListMetaDto,
  sessionListMeta,
} from './pagination';
export type { PageQueryFields, PageRequest } from './pagination';
export { CURSOR_ALLOWED, IsKeysetCursor, KeysetCursors, KeysetCursorsModule, MAX_CURSOR_LENGTH } from './keyset-cursor';
export type { KeysetList } from './keyset-cursor';
export { NoStore } from './no-store';
export { RequestValidationPipe } from './request-validation.pipe';
export { canonicalUuid, isUuid } from './uuid';
export { TenantParams, TenantParamsWith } from './path-params';
export { IsCanonicalUuid, IsDateTimeValue, IsIntegerInRange, IsOneOf, IsStringOfLength, IsUuidValue } from './validators';
export { ApiErrors, ApiIdempotent, ApiNoDependency } from './openapi/api-errors.decorator';
export { buildApiDocument, describeApi, serversOf } from './openapi/api-document';
export { API_VERSION } from './openapi/api-version';
export type { ApiDocumentOptions, ApiServer } from './openapi/api-document';
export { clientAddressKey } from './client-address';
export { assertStorableText, isStorableText, STORABLE_TEXT, unstorableTextIn } from './storable-text';
