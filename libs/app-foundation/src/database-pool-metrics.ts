import { Injectable } from '@nestjs/common';
import { PlatformMetrics, PoolCounts } from '@platform/observability';
import { DataSource } from 'typeorm';

/** Puts the app's TypeORM pool in the pool gauges, as `pool="app"`. */
@Injectable()
export class DatabasePoolMetrics {
  constructor(metrics: PlatformMetrics, dataSource: DataSource) {
    // TypeORM's PostgreSQL driver keeps its pg.Pool as `master` (no replication is configured).
    metrics.addDatabasePool('app', () => (dataSource.driver as unknown as { master?: PoolCounts }).master);
  }
}
