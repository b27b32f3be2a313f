/**
 * Whether traces are to be exported, from the standard OpenTelemetry
 * variables: on when an OTLP endpoint or a traces exporter other than `none`
 * is configured, off otherwise and whenever OTEL_SDK_DISABLED is `true`.
 * Off means the SDK is never loaded: no instrumentation, no cost per request.
 */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  if (exporters.length > 0) return !exporters.every((name) => name === 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
