import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { applySecurityHeaders, SECURITY_HEADERS_PREPARED, setOneByOne } from './security-headers';

/** The raw bytes of one answer of a server answering as `answer` does, the Date header's value blanked. */
async function rawAnswer(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    return await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end('GET /v1/x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text.replace(/^Date: .*$/m, 'Date: -')));
      socket.on('error', reject);
    });
  } finally {
    server.close();
  }
}

/** What Fastify does after its hooks: the reply's headers (lower-case names) through writeHead, then the body. */
function answeredLikeFastify(setSecurityHeaders: (request: IncomingMessage, response: ServerResponse) => void, extra: (response: ServerResponse) => void = () => {}) {
  return (request: IncomingMessage, response: ServerResponse) => {
    setSecurityHeaders(request, response);
    extra(response);
    const body = '{"data":[]}';
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ratelimit: '"p";r=1;t=2', 'x-request-id': 'req-1', 'content-length': String(Buffer.byteLength(body)) });
    response.end(body);
  };
}

describe('security headers as one prepared block', () => {
  it('put the same bytes on the wire as setting them one by one', async () => {
    // On a Node.js release that keeps a response's headers elsewhere, answers fall back to one by one.
    expect(SECURITY_HEADERS_PREPARED).toBe(true);
    const prepared = await rawAnswer(answeredLikeFastify(applySecurityHeaders));
    const oneByOne = await rawAnswer(answeredLikeFastify((_request, response) => setOneByOne(response)));
    expect(prepared).toBe(oneByOne);
    expect(prepared).toMatch(/^HTTP\/1\.1 200 OK\r\nContent-Security-Policy: .*\r\n/);
    expect(prepared).toContain('\r\nX-Content-Type-Options: nosniff\r\n');
  });

  it('are set one by one on a response that already has headers, keeping them', async () => {
    const withHeader = (response: ServerResponse) => response.setHeader('Allow', 'GET');
    const prepared = await rawAnswer(answeredLikeFastify((request, response) => (withHeader(response), applySecurityHeaders(request, response))));
    const oneByOne = await rawAnswer(answeredLikeFastify((_request, response) => (withHeader(response), setOneByOne(response))));
    expect(prepared).toBe(oneByOne);
    expect(prepared).toMatch(/^HTTP\/1\.1 200 OK\r\nAllow: GET\r\nContent-Security-Policy: /);
  });

  it('give each answer its own headers: one answer changing its copy leaves the next one alone', async () => {
    const changed = await rawAnswer(
      answeredLikeFastify(applySecurityHeaders, (response) => {
        // Names that are properties of ordinary objects are no headers of an answer.
        expect([response.hasHeader('constructor'), response.hasHeader('__proto__'), response.getHeader('toString')]).toEqual([false, false, undefined]);
        response.setHeader('X-Frame-Options', 'SAMEORIGIN');
      }),
    );
    expect(changed).toContain('\r\nX-Frame-Options: SAMEORIGIN\r\n');
    const next = await rawAnswer(answeredLikeFastify(applySecurityHeaders));
    expect(next).toBe(await rawAnswer(answeredLikeFastify((_request, response) => setOneByOne(response))));
  });
});
