import { DynamicModule, Global, Module } from '@nestjs/common';
import { ClientProxy, ClientsModule } from '@nestjs/microservices';
import { redisTransportOptions } from './redis-transport';
import { TransportClient } from './transport-client';

const CORE_TENANTS_CLIENT = 'CORE_TENANTS_CLIENT';

/** Provides a TransportClient that talks to core-tenants over the Redis transport. */
@Global()
@Module({})
export class TransportClientModule {
  static forRoot(redisUrl: string, timeoutMs: number): DynamicModule {
    return {
      module: TransportClientModule,
      imports: [ClientsModule.register([{ name: CORE_TENANTS_CLIENT, ...redisTransportOptions(redisUrl) }])],
      providers: [
        {
          provide: TransportClient,
          useFactory: (client: ClientProxy) => new TransportClient(client, timeoutMs),
          inject: [CORE_TENANTS_CLIENT],
        },
      ],
      exports: [TransportClient],
    };
  }
}
