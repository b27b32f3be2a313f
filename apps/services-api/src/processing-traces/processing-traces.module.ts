import { DynamicModule, Module } from '@nestjs/common';
import { OutboundHttp, OutboundPolicy } from '@platform/http-outbound';
import { measuredProvider, PlatformMetrics } from '@platform/observability';
import { DiscoverProcessingTracesUseCase } from './discover-processing-traces.use-case';
import { ProcessingTracesController } from './processing-traces.controller';
import { ProcessingTracesRepository } from './processing-traces.repository';
import { HttpTraceProvider } from './trace-provider/http-trace.provider';
import { TraceProvider } from './trace-provider/trace.provider';
import { RetrievalCache } from './retrieval-cache';
import { RetrieveProcessingTracesUseCase } from './retrieve-processing-traces.use-case';
import { TraceCredentials } from './trace-credentials';
import { TraceTokensClient } from './trace-tokens.client';
import { TraceFanOut } from './trace-fan-out';
import { TRACE_SETTINGS, TraceSettings } from './trace-settings';

/** Operations 9 and 10: processing traces from the plugins that provide them (docs/processing-traces.md). */
@Module({})
export class ProcessingTracesModule {
  /** `outbound`: which addresses the providers' endpoints may resolve to, as they come from data (plugins). */
  static forRoot(settings: TraceSettings, outbound: OutboundPolicy): DynamicModule {
    return {
      module: ProcessingTracesModule,
      controllers: [ProcessingTracesController],
      providers: [
        { provide: TRACE_SETTINGS, useValue: settings },
        { provide: OutboundHttp, useFactory: () => new OutboundHttp(outbound) },
        {
          provide: TraceProvider,
          useFactory: (metrics: PlatformMetrics, outbound: OutboundHttp) =>
            measuredProvider('processing-traces', new HttpTraceProvider(outbound), metrics, { operations: ['list', 'read'] }),
          inject: [PlatformMetrics, OutboundHttp],
        },
        ProcessingTracesRepository,
        TraceCredentials,
        TraceTokensClient,
        TraceFanOut,
        RetrievalCache,
        DiscoverProcessingTracesUseCase,
        RetrieveProcessingTracesUseCase,
      ],
    };
  }
}
