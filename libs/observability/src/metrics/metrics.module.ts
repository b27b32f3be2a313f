import { DynamicModule, Global, Module } from '@nestjs/common';
import { MetricsListener } from './metrics-listener';
import { PlatformMetrics } from './platform-metrics';

/**
 * The app's PlatformMetrics, injectable everywhere (features add their
 * scrape-time gauges and count their refusals through it), and the listener
 * that serves them, started by the app's main (`MetricsListener.listen`).
 */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(app: string): DynamicModule {
    return {
      module: MetricsModule,
      providers: [{ provide: PlatformMetrics, useValue: new PlatformMetrics(app) }, MetricsListener],
      exports: [PlatformMetrics, MetricsListener],
    };
  }
}
