import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions, DatabaseSettings } from './data-source';

@Module({})
export class DatabaseModule {
  static forRoot(settings: DatabaseSettings): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(settings), retryAttempts: 3, retryDelay: 500 })],
      exports: [TypeOrmModule],
    };
  }
}
