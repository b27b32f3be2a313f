import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { TransportReadiness } from '@platform/transport';

/** Up while every Redis connection of the app's transport (client and listener) is connected. */
@Injectable()
export class TransportHealthIndicator {
  constructor(
    private readonly transport: TransportReadiness,
    private readonly health: HealthIndicatorService,
  ) {}

  /** Whether the app has a transport to report on at all (plugins-helpdesk has none). */
  get applies(): boolean {
    return this.transport.watched;
  }

  isHealthy(key = 'transport'): HealthIndicatorResult {
    const indicator = this.health.check(key);
    const state = this.transport.state();
    return state.ready ? indicator.up() : indicator.down({ message: state.reason });
  }
}
