import { ApiProperty } from '@nestjs/swagger';

export class OperatorTenant {
  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ example: 'Acme Support' })
  tenantName!: string;

  @ApiProperty({ enum: ['owner', 'member'] })
  role!: 'owner' | 'member';
}

export class OperatorTenantList {
  @ApiProperty({ type: [OperatorTenant] })
  data!: OperatorTenant[];
}

export class TenantDetails {
  @ApiProperty({ format: 'uuid' })
  tenantID!: string;

  @ApiProperty({ example: 'Acme Support' })
  tenantName!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class TenantDetailsResponse {
  @ApiProperty({ type: TenantDetails })
  data!: TenantDetails;
}
