import { Module } from '@nestjs/common';
import { TenantsController } from './tenants.controller';
import { TenantsRepository } from './tenants.repository';

@Module({ controllers: [TenantsController], providers: [TenantsRepository] })
export class TenantsModule {}
