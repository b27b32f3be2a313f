import { Controller, Get, Logger, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { AppException } from '@platform/errors';
import { PostgresHealthIndicator } from './postgres.health';
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
  private readonly logger = new Logger(HealthController.name);

  constructor(
    private readonly health: HealthCheckService,
    private readonly database: PostgresHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly transport: TransportHealthIndicator,
  ) {}

  @Get('live')
  @ApiOperation({ operationId: 'checkLiveness', summary: 'Liveness probe' })
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @ApiOperation({ operationId: 'checkReadiness', summary: 'Readiness probe: PostgreSQL and Redis reachable, transport connected' })
  @HealthCheck()
  async ready() {
    try {
      return await this.health.check([
        () => this.database.isHealthy('postgres'),
        () => this.redis.isHealthy('redis'),
        ...(this.transport.applies ? [() => this.transport.isHealthy('transport')] : []),
      ]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      // Not ready: 503 in the envelope like every other answer; which check failed goes to the log.
      this.logger.warn({ checks: error.getResponse() }, 'not ready');
      throw new AppException('InternalServiceUnavailable', { cause: error });
    }
  }
}
