import { DynamicModule, Module } from '@nestjs/common';
import { AppFoundationModule } from '@platform/app-foundation';
import { operatorTokenSettingsOf } from '@platform/auth';
import { transportNamespaceOf } from '@platform/transport';
import { outboxCommittedChannel } from '@platform/webhooks';
import { RealtimeGatewayConfig } from './config';
import { OperatorSocketLeasesRepository } from './presence/operator-socket-leases.repository';
import { LEASE_REFRESH_MS, SocketLeases } from './presence/socket-leases';
import { OUTBOX_COMMITTED_CHANNEL, OutboxNudgeListener } from './relay/outbox-nudge-listener';
import { OutboxRelay, RELAY_POLL_MS } from './relay/outbox-relay';
import { ChannelRequestForwarder, FORWARD_SETTINGS, ForwardSettings } from './sockets/channel-request-forwarder';
import { ClientFrames } from './sockets/client-frames';
import { OpenSockets } from './sockets/open-sockets';
import { RealtimeSockets } from './sockets/realtime-sockets';
import { SocketHeartbeat } from './sockets/socket-heartbeat';
import { SocketRevocation } from './sockets/socket-revocation';
import { SOCKET_SETTINGS, SocketSettings } from './sockets/socket-settings';
import { SocketSlots } from './sockets/socket-slots';
import { SocketSubscription } from './sockets/socket-subscription';
import { SocketUpgrade } from './sockets/socket-upgrade';
import { StreamFanOut } from './sockets/stream-fan-out';
import { UpgradeAuthentication } from './sockets/upgrade-authentication';
import { STREAM_SETTINGS, StreamSettings, TenantStreams } from './streams/tenant-streams';

@Module({})
export class RealtimeGatewayModule {
  static forRoot(config: RealtimeGatewayConfig): DynamicModule {
    const streams: StreamSettings = {
      namespace: transportNamespaceOf(config),
      retentionMs: config.REALTIME_RETENTION_SECONDS * 1000,
      maxEvents: config.REALTIME_STREAM_MAX_EVENTS,
    };
    const sockets: SocketSettings = {
      allowedOrigins: config.CORS_ALLOWED_ORIGINS,
      heartbeatMs: config.REALTIME_HEARTBEAT_SECONDS * 1000,
      bufferLimitBytes: config.REALTIME_SOCKET_BUFFER_BYTES,
      maxFrameBytes: config.REALTIME_MAX_FRAME_BYTES,
      maxFramesPer10s: config.REALTIME_MAX_FRAMES_PER_10S,
      maxSocketsPerPrincipal: config.REALTIME_MAX_SOCKETS_PER_PRINCIPAL,
      maxSocketsPerTenant: config.REALTIME_MAX_SOCKETS_PER_TENANT,
      drainJitterMs: config.REALTIME_DRAIN_JITTER_MS,
    };
    const forwarding: ForwardSettings = {
      servicesApiUrl: config.SERVICES_API_URL.replace(/\/$/, ''),
      timeoutMs: config.REALTIME_REQUEST_TIMEOUT_MS,
      maxInFlight: config.REALTIME_MAX_REQUESTS_IN_FLIGHT,
    };
    return {
      module: RealtimeGatewayModule,
      imports: [
        AppFoundationModule.forRoot({
          app: 'realtime-gateway',
          config,
          operatorTokens: operatorTokenSettingsOf(config),
          // Its Redis user may read standings, not write them (docs/deployment.md, Redis ACLs).
          standingCopies: 'read-only',
        }),
      ],
      providers: [
        { provide: STREAM_SETTINGS, useValue: streams },
        { provide: SOCKET_SETTINGS, useValue: sockets },
        { provide: RELAY_POLL_MS, useValue: config.REALTIME_RELAY_POLL_MS },
        { provide: OUTBOX_COMMITTED_CHANNEL, useValue: outboxCommittedChannel(transportNamespaceOf(config)) },
        { provide: FORWARD_SETTINGS, useValue: forwarding },
        { provide: LEASE_REFRESH_MS, useValue: config.PRESENCE_LEASE_REFRESH_SECONDS * 1000 },
        OperatorSocketLeasesRepository,
        SocketLeases,
        TenantStreams,
        OutboxRelay,
        OutboxNudgeListener,
        StreamFanOut,
        UpgradeAuthentication,
        ChannelRequestForwarder,
        OpenSockets,
        SocketSlots,
        SocketUpgrade,
        SocketSubscription,
        ClientFrames,
        SocketHeartbeat,
        SocketRevocation,
        RealtimeSockets,
      ],
    };
  }
}
