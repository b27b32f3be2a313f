import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';

const PING_TIMEOUT_MS = 1_000;

/**
 * PostgreSQL answers `SELECT 1` within a second: what terminus's TypeORM
 * indicator checks, with the app's own DataSource. Not that indicator: it
 * imports @nestjs/typeorm by name when it first runs, which an app started from
 * its bundle (docs/images.md) cannot resolve, the package being inside the bundle.
 */
@Injectable()
export class PostgresHealthIndicator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly health: HealthIndicatorService,
  ) {}

  async isHealthy(key = 'postgres'): Promise<HealthIndicatorResult> {
    const indicator = this.health.check(key);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.dataSource.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
        }),
      ]);
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : String(error) });
    } finally {
      clearTimeout(timer);
    }
  }
}
