import WebSocket from 'ws';

/**
 * A child process of the realtime bench scenario (forked, over IPC) holding
 * a share of its client sockets, so that opening them, reading every frame
 * and timing it costs this process's CPU, not the bench's, and the gateways'
 * own CPU can be told apart from the load generator's (/proc/<pid>/stat of
 * each). See RealtimeClientPool for the requests.
 *
 * Reading is kept cheap: an event frame is counted and its `sentAt` read
 * from the bytes; only while `track` is on (the loss check, at a low rate)
 * is every frame parsed, its sequence number kept and its offset kept for a
 * resume.
 */
export type ClientRequest =
  | { op: 'open'; urls: string[]; authorization: string; count: number; concurrency: number }
  | { op: 'reset'; track: boolean }
  | { op: 'counts'; latencies: boolean }
  | { op: 'resume'; from: string; to: string; authorization: string }
  | { op: 'lost'; from: number; count: number }
  | { op: 'close' };

export interface ClientAnswer {
  /** Sockets held. */
  sockets: number;
  /** Of those, sockets open (a slow consumer the gateway closed is not). */
  open: number;
  /** The fewest event frames any socket received since the last reset. */
  fewest: number;
  /** Event frames received since the last reset, over every socket. */
  frames: number;
  /** Commit-to-socket latencies since the last reset: how many took each whole millisecond (the last slot: that long or longer). */
  histogram: number[];
  /** For `lost`: (socket, event) pairs never received. */
  lost: number;
  /** For `resume`: sockets resumed. */
  resumed: number;
}

interface Client {
  socket: WebSocket;
  url: string;
  events: number;
  sequences?: Set<number>;
  last?: { epoch: string; offset: string };
}

const HISTOGRAM_SLOTS = 60_001;
const EVENT_PREFIX = Buffer.from('{"type":"event",');
const SENT_AT = Buffer.from('"sentAt":');

const clients: Client[] = [];
let histogram = new Uint32Array(HISTOGRAM_SLOTS);
let frames = 0;
let track = false;

process.on('message', (message: { id: number; request: ClientRequest }) => {
  void handle(message.request).then(
    (answer) => process.send?.({ id: message.id, answer }),
    (error: unknown) => process.send?.({ id: message.id, error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));

async function handle(request: ClientRequest): Promise<Partial<ClientAnswer>> {
  switch (request.op) {
    case 'open':
      for (let index = 0; index < request.count; index += request.concurrency) {
        const wave = Array.from({ length: Math.min(request.concurrency, request.count - index) }, (_, at) =>
          open(request.urls[(index + at) % request.urls.length], request.authorization),
        );
        clients.push(...(await Promise.all(wave)));
      }
      return { sockets: clients.length };
    case 'reset':
      track = request.track;
      histogram = new Uint32Array(HISTOGRAM_SLOTS);
      frames = 0;
      for (const client of clients) {
        client.events = 0;
        client.sequences = track ? new Set() : undefined;
      }
      return { sockets: clients.length };
    case 'counts': {
      const alive = clients.filter((client) => client.socket.readyState === WebSocket.OPEN);
      const fewest = alive.reduce((least, client) => Math.min(least, client.events), Infinity);
      return { sockets: clients.length, open: alive.length, fewest, frames, histogram: request.latencies ? [...histogram] : [] };
    }
    case 'resume': {
      const moved = clients.filter((client) => client.url === request.from);
      // The gateway was killed: its sockets close once the reset arrives.
      const deadline = Date.now() + 10_000;
      while (moved.some((client) => client.socket.readyState !== WebSocket.CLOSED) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      // Spread over 100 ms, as clients told nothing come back at their own pace.
      await Promise.all(
        moved.map(async (client, index) => {
          await new Promise((resolve) => setTimeout(resolve, index % 100));
          await open(request.to, request.authorization, client);
        }),
      );
      return { sockets: clients.length, resumed: moved.length };
    }
    case 'lost': {
      let lost = 0;
      for (const client of clients) for (let sequence = request.from; sequence < request.from + request.count; sequence += 1) if (!client.sequences?.has(sequence)) lost += 1;
      return { lost };
    }
    case 'close':
      for (const client of clients.splice(0)) client.socket.terminate();
      return { sockets: 0 };
  }
}

/** Opens a socket and subscribes, or resumes `previous` from its last offset. */
function open(url: string, authorization: string, previous?: Client): Promise<Client> {
  const client: Client = previous ?? { socket: undefined as unknown as WebSocket, url, events: 0, sequences: track ? new Set() : undefined };
  const socket = new WebSocket(url, { headers: { authorization }, perMessageDeflate: false });
  client.socket = socket;
  client.url = url;
  return new Promise((resolve, reject) => {
    // A killed gateway resets its sockets: an error after the open is the close that follows.
    socket.on('error', reject);
    socket.on('message', (data: Buffer) => {
      if (!track && data.subarray(0, EVENT_PREFIX.length).equals(EVENT_PREFIX)) return counted(client, data);
      const frame = JSON.parse(data.toString()) as { type: string; epoch?: string; offset?: string; event?: { data: { sentAt?: number; seq?: number } } };
      if (frame.type === 'welcome') socket.send(JSON.stringify(client.last ? { type: 'resume', ...client.last } : { type: 'subscribe' }));
      if (frame.type === 'subscribed' || frame.type === 'resync-required') resolve(client);
      if (frame.offset && frame.epoch) client.last = { epoch: frame.epoch, offset: frame.offset };
      if (frame.type === 'event' && frame.event) {
        const sequence = frame.event.data.seq;
        if (sequence !== undefined && client.sequences?.has(sequence)) return;
        if (sequence !== undefined) client.sequences?.add(sequence);
        counted(client, undefined, frame.event.data.sentAt);
      }
    });
  });
}

/** Counts an event frame and its latency, reading `sentAt` from the bytes when not parsed. */
function counted(client: Client, data: Buffer | undefined, parsedSentAt?: number): void {
  client.events += 1;
  frames += 1;
  const sentAt = parsedSentAt ?? (data ? sentAtOf(data) : undefined);
  if (sentAt === undefined) return;
  histogram[Math.min(HISTOGRAM_SLOTS - 1, Math.max(0, Date.now() - sentAt))] += 1;
}

function sentAtOf(data: Buffer): number | undefined {
  const at = data.indexOf(SENT_AT);
  if (at < 0) return undefined;
  let value = 0;
  for (let index = at + SENT_AT.length; index < data.length && data[index] >= 48 && data[index] <= 57; index += 1) value = value * 10 + data[index] - 48;
  return value;
}
