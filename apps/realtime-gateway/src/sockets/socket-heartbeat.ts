import { Inject, Injectable } from '@nestjs/common';
import { CLOSE_CODES } from './frames';
import { OpenSockets } from './open-sockets';
import { SOCKET_SETTINGS, SocketSettings } from './socket-settings';

/** The heartbeat of docs/realtime.md: a ping every beat, idle sockets closed, offsets passed in silence told. */
@Injectable()
export class SocketHeartbeat {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sockets: OpenSockets,
    @Inject(SOCKET_SETTINGS) private readonly settings: Pick<SocketSettings, 'heartbeatMs'>,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.beat(), this.settings.heartbeatMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Pings every socket; closes those that answered nothing since the last beat; tells idle ones the offset they passed. */
  beat(): void {
    for (const subscriber of this.sockets) {
      if (!subscriber.alive) {
        subscriber.close(CLOSE_CODES.idle, 'idle');
        subscriber.socket.terminate();
        continue;
      }
      subscriber.alive = false;
      subscriber.socket.ping();
      const untold = subscriber.untoldOffset();
      if (untold) {
        subscriber.send({ type: 'heartbeat', epoch: subscriber.epoch, offset: untold });
        subscriber.markTold(untold);
      }
    }
  }
}
