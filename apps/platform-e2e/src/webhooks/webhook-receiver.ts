import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, as it got it. */
export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
  /** What the receiver answered: a status code, or `hang` (no answer until the sender gave up). */
  answer: number | 'hang';
}

export type Answer = number | 'hang';

/**
 * A tenant's webhook receiver on loopback: records every request, answers
 * per path from a script (status codes, or `hang`: no answer at all), 200
 * once the script runs out. `hold(path)` keeps requests to a path waiting
 * until `release()`, to stop a sender mid-delivery.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly always = new Map<string, Answer>();
  private readonly open = new Set<ServerResponse>();
  private readonly inFlight = new Map<string, number>();
  private readonly mostInFlight = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => receiver.handle(request, response));
    return receiver;
  }

  url(path: string): string {
    return `${this.baseUrl}/${path}`;
  }

  /** The next requests to `path` get these answers, in turn. */
  script(path: string, ...answers: Answer[]): void {
    this.scripts.set(path, answers);
  }

  /** Every request to `path` gets this answer until told otherwise. */
  answerAlways(path: string, answer: Answer | undefined): void {
    if (answer === undefined) this.always.delete(path);
    else this.always.set(path, answer);
  }

  /** Releases every held request with a 200. */
  releaseHeld(): void {
    for (const response of this.open) response.writeHead(200).end();
    this.open.clear();
  }

  /** The most requests to `path` that were open at one moment: received and not yet answered or given up by the sender. */
  mostAtOnce(path: string): number {
    return this.mostInFlight.get(path) ?? 0;
  }

  to(path: string): ReceivedDelivery[] {
    return this.received.filter((delivery) => delivery.path === path);
  }

  async close(): Promise<void> {
    for (const response of this.open) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const requestPath = (request.url ?? '/').slice(1);
    const open = (this.inFlight.get(requestPath) ?? 0) + 1;
    this.inFlight.set(requestPath, open);
    this.mostInFlight.set(requestPath, Math.max(open, this.mostInFlight.get(requestPath) ?? 0));
    response.on('close', () => this.inFlight.set(requestPath, (this.inFlight.get(requestPath) ?? 1) - 1));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '/').slice(1);
      const answer = this.always.get(path) ?? this.scripts.get(path)?.shift() ?? 200;
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      this.received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now(), answer });
      if (answer === 'hang') {
        this.open.add(response);
        response.on('close', () => this.open.delete(response));
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 400 ? 'receiver says no' : 'ok');
    });
  }
}

/** What a receiver's Standard Webhooks library makes of a delivery: its payload, or it throws. */
export function verified(secret: string, delivery: ReceivedDelivery): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(delivery.body, delivery.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
}
