import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { RedisHealthIndicator } from './redis.health';
import { TransportHealthIndicator } from './transport.health';

/**
 * Liveness says the process is up (no dependency checks, so a database outage
 * never restarts every pod); readiness says it can serve: Postgres and Redis
 * answer, and the transport between apps, where the app has one, is connected.
 */
@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly transport: TransportHealthIndicator,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness probe' })
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness probe: PostgreSQL and Redis reachable, transport connected' })
  @HealthCheck()
  ready() {
    return this.health.check([
      () => this.database.pingCheck('postgres', { timeout: 1_000 }),
      () => this.redis.isHealthy('redis'),
      ...(this.transport.applies ? [() => this.transport.isHealthy('transport')] : []),
    ]);
  }
}
