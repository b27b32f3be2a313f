import { AppException, ErrorBody, renderReceived } from '@platform/errors';
import { isOffset } from '../streams/tenant-streams';
import { StreamedEvent, StreamEntry } from '../streams/streamed-event';
import { CHANNEL_REQUEST_TYPES, ChannelRequestFrame, isChannelRequestType, parseChannelRequestFrame } from './channel-requests';

/** The frames a client sends (JSON text, one object per frame; docs/realtime.md, Protocol). */
export type ClientFrame = { type: 'subscribe' } | { type: 'resume'; epoch: string; offset: string } | { type: 'ping' } | { type: 'activity' } | ChannelRequestFrame;

/** The frames the gateway sends. */
export type ServerFrame =
  | { type: 'welcome'; connectionID: string; tenantID: string; heartbeatSeconds: number }
  | { type: 'subscribed'; epoch: string; offset: string }
  | { type: 'event'; epoch: string; offset: string; event: StreamedEvent }
  | { type: 'resync-required'; epoch: string; offset: string }
  | { type: 'heartbeat'; epoch: string; offset: string }
  | { type: 'reconnect'; afterMs: number }
  | { type: 'error'; error: ErrorBody; requestID?: string }
  | { type: 'result'; requestID: string; status: number; data: unknown }
  | { type: 'pong' };

/** An entry with its event frame's bytes, made once for every socket of the replica it goes to. */
export interface FramedEntry extends StreamEntry {
  readonly frame: Buffer;
}

/**
 * The bytes of an entry's event frame. They are the same for every socket
 * that may see the entry (epoch, offset, event; nothing of the socket), so
 * the fan-out encodes an entry once, not once per socket.
 */
export function framed(entry: StreamEntry): FramedEntry {
  const frame: ServerFrame = { type: 'event', epoch: entry.epoch, offset: entry.offset, event: entry.event };
  return { ...entry, frame: Buffer.from(JSON.stringify(frame)) };
}

/**
 * The close codes the gateway uses besides the standard ones (1009 frame too
 * large, 1011 internal error, 1012 restarting: reconnect). The 4xxx codes
 * borrow the HTTP status they resemble.
 */
export const CLOSE_CODES = {
  /** The socket's credential expired (the operator token the ticket was asked with). Ask a new ticket. */
  credentialExpired: 4401,
  /** The principal lost access to the tenant (member removed, connection uninstalled, plugin's last connection removed). */
  accessRevoked: 4403,
  /** No pong or frame for two heartbeats. */
  idle: 4408,
  /** The client read slower than events arrived: more than REALTIME_SOCKET_BUFFER_BYTES waited. Resume. */
  slowConsumer: 4413,
  /** More frames than REALTIME_MAX_FRAMES_PER_10S. */
  tooManyFrames: 4429,
  /** The replica is stopping: a `reconnect` frame came first. */
  restarting: 1012,
  /** A frame larger than REALTIME_MAX_FRAME_BYTES (closed by the WebSocket library). */
  frameTooLarge: 1009,
} as const;

export const CLIENT_FRAME_TYPES = ['subscribe', 'resume', 'ping', 'activity', ...CHANNEL_REQUEST_TYPES] as const;

const invalid = (field: string, received: unknown, allowed: string) => AppException.validation([{ field, received: renderReceived(received), allowed }]);

/** Parses a client's frame; 1002 with the offending field for anything else. Never throws anything but an AppException. */
export function parseClientFrame(text: string): ClientFrame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('frame', text.length > 64 ? `${text.slice(0, 64)}...` : text, 'a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('frame', parsed, 'a JSON object');
  const frame = parsed as Record<string, unknown>;
  switch (frame.type) {
    case 'subscribe':
    case 'ping':
    case 'activity':
      return { type: frame.type };
    case 'resume':
      if (typeof frame.epoch !== 'string' || frame.epoch.length === 0 || frame.epoch.length > 64) throw invalid('epoch', frame.epoch, 'the epoch of the last event received');
      if (!isOffset(frame.offset)) throw invalid('offset', frame.offset, 'the offset of the last event received (<ms>-<seq>)');
      return { type: 'resume', epoch: frame.epoch, offset: frame.offset };
    default:
      if (isChannelRequestType(frame.type)) return parseChannelRequestFrame(frame.type, frame);
      throw invalid('type', frame.type, CLIENT_FRAME_TYPES.join(', '));
  }
}
