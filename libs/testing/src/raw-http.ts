import { connect } from 'node:net';

/** An answer read off a raw socket: what fetch would refuse to send (malformed URLs, huge headers) gets one too. */
export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body parsed as JSON when it is JSON, else its text. */
  body: any;
}

export interface RawRequestOptions {
  method?: string;
  /** Sent exactly as given: no encoding, no checks. */
  target: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sends only this much of the whole request, then waits for the answer (to let a timeout pass). */
  stopAfterBytes?: number;
}

/** Writes `method target HTTP/1.1` with its headers and body as given, with `Connection: close`. */
export function rawRequestText(host: string, options: RawRequestOptions): string {
  const headers: Record<string, string> = { host, connection: 'close', ...options.headers };
  if (options.body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(options.body));
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `${options.method ?? 'GET'} ${options.target} HTTP/1.1\r\n${head}\r\n${options.body ?? ''}`;
}

/**
 * Past this, a connection the server keeps open without answering is a failure, not a wait for ever: just under the
 * suite's 60 s test timeout, since a busy machine only makes an answer later.
 */
const ANSWER_TIMEOUT_MS = 50_000;

/** Sends raw request text to an app on loopback and reads the answer until the server closes the connection. */
export function sendRaw(baseUrl: string, text: string, stopAfterBytes?: number): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => {
      const payload = Buffer.from(text);
      socket.write(stopAfterBytes === undefined ? payload : payload.subarray(0, stopAfterBytes));
    });
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => socket.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while a large request is still being written: what it answered still counts.
    socket.on('error', (error) => (chunks.length > 0 ? undefined : reject(error)));
    socket.on('close', () => {
      try {
        resolve(parseRawResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

/** Sends one request built from `options` (see rawRequestText). */
export function requestRaw(baseUrl: string, options: RawRequestOptions): Promise<RawResponse> {
  return sendRaw(baseUrl, rawRequestText(new URL(baseUrl).host, options), options.stopAfterBytes);
}

/** Interim answers (`100 Continue`) before the final one. */
const INTERIM = /^HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n/;

function parseRawResponse(data: Buffer): RawResponse {
  let text = data.toString('utf8');
  while (INTERIM.test(text)) text = text.replace(INTERIM, '');
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...headerLines] = text.slice(0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let bodyText = text.slice(headEnd + 4);
  if (headers['transfer-encoding'] === 'chunked') bodyText = dechunk(bodyText);
  let body: unknown = bodyText;
  try {
    body = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status, headers, body };
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
