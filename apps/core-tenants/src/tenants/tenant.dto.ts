import { ApiProperty } from '@nestjs/swagger';
import { IsUuidValue } from '@platform/http-common';

export class TenantParams {
  @ApiProperty({ format: 'uuid' })
  @IsUuidValue()
  tenantID!: string;
}

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
