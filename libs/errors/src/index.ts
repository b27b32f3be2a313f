export { ERROR_CATALOG, errorKeyOfCode } from './catalog';
export type { ErrorDefinition, ErrorKey } from './catalog';
export { AppException, errorEnvelope, renderReceived } from './app-exception';
export type { ErrorBody, FieldError } from './app-exception';
export { answerClientError, answerConnectRequest, clientErrorResponse, rawErrorResponse } from './client-error';
export { HttpExceptionFilter, replyWithError, replyWithFrameworkError, toAppException, whyNoRouteAnswers } from './http-exception.filter';
export type { AllowedMethodsAt, HttpExceptionFilterOptions } from './http-exception.filter';
export { rethrowUniqueViolation, violatedUniqueConstraint } from './postgres-errors';
export { isUnavailableDependency } from './unavailable-dependency';
