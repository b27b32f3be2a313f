import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'OperatorTenant' })
export class OperatorTenantDto {
  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ example: 'Acme Support' })
  tenantName!: string;

  @ApiProperty({ enum: ['owner', 'member'] })
  role!: 'owner' | 'member';
}

@ApiSchema({ name: 'OperatorTenantList' })
export class OperatorTenantListResponse {
  @ApiProperty({ type: [OperatorTenantDto] })
  data!: OperatorTenantDto[];
}

@ApiSchema({ name: 'TenantDetails' })
export class TenantDetailsDto {
  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ example: 'Acme Support' })
  tenantName!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class TenantDetailsResponse {
  @ApiProperty({ type: TenantDetailsDto })
  data!: TenantDetailsDto;
}
