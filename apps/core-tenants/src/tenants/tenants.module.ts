import { Module } from '@nestjs/common';
import { ListOperatorTenantsUseCase } from './list-operator-tenants.use-case';
import { ReadTenantUseCase } from './read-tenant.use-case';
import { TenantsController } from './tenants.controller';
import { TenantsRepository } from './tenants.repository';

@Module({ controllers: [TenantsController], providers: [TenantsRepository, ListOperatorTenantsUseCase, ReadTenantUseCase] })
export class TenantsModule {}
