/** A JSON answer as a test sees it. */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is already a string (sent as is, for malformed bodies). */
  body?: unknown;
}

/** The headers and body a JSON request sends, from `options`. */
export function encodeRequest(options: RequestOptions): { headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return { headers, body };
}

/** An answer's body: parsed when it is JSON, the text as is otherwise. */
export function decodeBody<T>(text: string): T {
  try {
    return (text ? JSON.parse(text) : undefined) as T;
  } catch {
    return text as T;
  }
}

/**
 * Sends a real HTTP request to an app listening on loopback, untyped: for what
 * the typed clients of @platform/api-client cannot express on purpose (routes
 * and methods no operation answers, paths outside the OpenAPI documents).
 */
export async function request<T = any>(baseUrl: string, path: string, options: RequestOptions = {}): Promise<JsonResponse<T>> {
  const { headers, body } = encodeRequest(options);
  const response = await fetch(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers, body });
  return { status: response.status, headers: response.headers, body: decodeBody<T>(await response.text()) };
}

/** The single error of an envelope, asserting the envelope's shape on the way. */
export function singleError(body: unknown): { statusCode: number; error: string; error_code: number; message: string; fields?: unknown[] } {
  const errors = (body as { errors?: unknown[] })?.errors;
  if (!Array.isArray(errors) || errors.length !== 1) throw new Error(`not an error envelope: ${JSON.stringify(body)}`);
  return errors[0] as never;
}
