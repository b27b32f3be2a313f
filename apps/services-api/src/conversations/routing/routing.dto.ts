import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { canonicalUuid, IsIntegerInRange, IsOneOf, isUuid, IsUuidValue } from '@platform/http-common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsOptional, ValidateIf } from 'class-validator';
import { DEFAULT_CAPACITY, MAX_CAPACITY, MAX_POLICY_OPERATORS, MAX_REQUEUE_OFFLINE_AFTER_SECONDS, MIN_CAPACITY, ROUTING_POLICIES, type RoutingPolicyName } from './routing-policy';

/** An inbox's routing policy as stored by PUT; every field the body leaves out takes its default. */
export class RoutingPolicyBody {
  @ApiProperty({ enum: ROUTING_POLICIES, description: '`manual`: nobody is assigned automatically; `least-loaded`, `round-robin`: see docs/conversations.md#routing' })
  @IsOneOf(ROUTING_POLICIES)
  policy!: RoutingPolicyName;

  @ApiPropertyOptional({ minimum: MIN_CAPACITY, maximum: MAX_CAPACITY, description: `Open sessions an operator may be assigned at most, counted tenant-wide; absent: ${DEFAULT_CAPACITY}` })
  @IsOptional()
  @IsIntegerInRange(MIN_CAPACITY, MAX_CAPACITY)
  capacity?: number;

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_POLICY_OPERATORS, description: "The inbox's operators, members of the tenant (else 404 1990); empty: every member" })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_POLICY_OPERATORS)
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map((id) => (isUuid(id) ? canonicalUuid(id) : id)) : value))
  @ArrayUnique()
  @IsUuidValue({ each: true })
  operatorIDs?: string[];

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: MAX_REQUEUE_OFFLINE_AFTER_SECONDS,
    description: 'An assignee offline this long gives their sessions of the inbox back to the queue (session.requeued); null or absent: never',
  })
  @ValidateIf((body: RoutingPolicyBody) => body.requeueOfflineAfterSeconds !== null && body.requeueOfflineAfterSeconds !== undefined)
  @IsIntegerInRange(1, MAX_REQUEUE_OFFLINE_AFTER_SECONDS)
  requeueOfflineAfterSeconds?: number | null;
}

export class RoutingPolicyDto {
  @ApiProperty({ format: 'uuid' }) inboxID!: string;
  @ApiProperty({ enum: ROUTING_POLICIES }) policy!: RoutingPolicyName;
  @ApiProperty({ minimum: MIN_CAPACITY, maximum: MAX_CAPACITY }) capacity!: number;
  @ApiProperty({ type: [String], format: 'uuid', description: 'Empty: every member of the tenant' }) operatorIDs!: string[];
  @ApiProperty({ type: Number, nullable: true, description: 'null: sessions are never given back to the queue' }) requeueOfflineAfterSeconds!: number | null;
}

export class RoutingPolicyResponse {
  @ApiProperty({ type: RoutingPolicyDto }) data!: RoutingPolicyDto;
}
