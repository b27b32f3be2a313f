import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { PostgresHealthIndicator } from './postgres.health';
import { RedisHealthIndicator } from './redis.health';
import { TransportHealthIndicator } from './transport.health';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [PostgresHealthIndicator, RedisHealthIndicator, TransportHealthIndicator],
})
export class HealthModule {}
