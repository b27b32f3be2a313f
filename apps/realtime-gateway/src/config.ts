import { IsIntegerBetween, IsPort, OperatorTokenVerificationConfig } from '@platform/config';
import { Matches } from 'class-validator';

/** realtime-gateway's environment (docs/configuration.md, docs/realtime.md#limits). */
export class RealtimeGatewayConfig extends OperatorTokenVerificationConfig {
  @IsPort()
  REALTIME_GATEWAY_PORT = 3003;

  /** Port of `GET /metrics` (Prometheus), apart from the API's so the Ingress never exposes it; 0 picks a free port. */
  @IsIntegerBetween(0, 65535)
  METRICS_PORT = 9467;

  /** Seconds an event stays in its tenant's stream: a client that reconnects within it misses nothing. */
  @IsIntegerBetween(10, 86_400)
  REALTIME_RETENTION_SECONDS = 600;

  /** Events one tenant's stream keeps at most (approximately, as Redis trims): the window's other bound. */
  @IsIntegerBetween(100, 1_000_000)
  REALTIME_STREAM_MAX_EVENTS = 10_000;

  /** How often the relay looks at the outbox when nothing nudged it. */
  @IsIntegerBetween(10, 60_000)
  REALTIME_RELAY_POLL_MS = 100;

  /** Seconds between two pings the gateway sends; a socket that answered none within two is closed (4408). */
  @IsIntegerBetween(1, 300)
  REALTIME_HEARTBEAT_SECONDS = 25;

  /** Bytes a socket may have waiting to be sent; a client that reads slower is closed (4413) and resumes. */
  @IsIntegerBetween(1_024, 64 * 1024 * 1024)
  REALTIME_SOCKET_BUFFER_BYTES = 1024 * 1024;

  /** Largest frame a client may send (larger: closed with 1009). */
  @IsIntegerBetween(256, 1024 * 1024)
  REALTIME_MAX_FRAME_BYTES = 16 * 1024;

  /** Frames a client may send per 10 seconds (more: closed with 4429). */
  @IsIntegerBetween(1, 10_000)
  REALTIME_MAX_FRAMES_PER_10S = 50;

  /** Sockets one principal (operator, plugin or connection) may hold on one tenant, per replica. */
  @IsIntegerBetween(1, 10_000)
  REALTIME_MAX_SOCKETS_PER_PRINCIPAL = 20;

  /** Sockets one tenant may hold, per replica. */
  @IsIntegerBetween(1, 1_000_000)
  REALTIME_MAX_SOCKETS_PER_TENANT = 5_000;

  /** On SIGTERM, clients are told to reconnect after a random delay up to this, so they do not all arrive at once. */
  @IsIntegerBetween(0, 60_000)
  REALTIME_DRAIN_JITTER_MS = 5_000;

  /**
   * services-api's base URL inside the platform, where a plugin connection's
   * requests over its socket go, with its own credential (docs/realtime.md,
   * Requests over the socket). Only this URL ever receives a credential.
   */
  @Matches(/^https?:\/\/[^\s/?#]+\/?$/, { message: 'must be an http(s) URL of services-api, without a path (e.g. http://services-api:3000)' })
  SERVICES_API_URL!: string;

  /** Time limit of one request forwarded to services-api, answer included (then 504 5904 to the client). */
  @IsIntegerBetween(100, 60_000)
  REALTIME_REQUEST_TIMEOUT_MS = 10_000;

  /**
   * Seconds between two refreshes of the operator sockets' leases, which carry
   * their last activity (docs/presence.md); below services-api's
   * PRESENCE_OFFLINE_GRACE_SECONDS, or open sockets would lapse between refreshes.
   */
  @IsIntegerBetween(1, 600)
  PRESENCE_LEASE_REFRESH_SECONDS = 15;

  /** Requests one socket may have waiting on services-api at once (more: 429 1071 for that request). */
  @IsIntegerBetween(1, 1_000)
  REALTIME_MAX_REQUESTS_IN_FLIGHT = 8;
}
