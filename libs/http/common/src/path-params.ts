import { ApiProperty } from '@nestjs/swagger';
import { IsCanonicalUuid } from './validators';

/** Path parameters of the routes whose only parameter is `tenantID`. */
export class TenantParams {
  @ApiProperty({ format: 'uuid' })
  @IsCanonicalUuid()
  tenantID!: string;
}

function declareUuidParam(prototype: object, name: string): void {
  ApiProperty({ format: 'uuid', type: String })(prototype, name);
  IsCanonicalUuid()(prototype, name);
}

/**
 * Path parameters `tenantID` and one more id of the tenant's, both UUIDs:
 * `class PluginConnectionParams extends TenantParamsWith('pluginConnectionID') {}`.
 * tenantID is declared first, and a 400 names the fields in declaration
 * order (a class extending TenantParams would name its own id first).
 */
export function TenantParamsWith<Id extends string>(id: Id): new () => TenantParams & Record<Id, string> {
  class TenantAndIdParams {}
  declareUuidParam(TenantAndIdParams.prototype, 'tenantID');
  declareUuidParam(TenantAndIdParams.prototype, id);
  return TenantAndIdParams as new () => TenantParams & Record<Id, string>;
}
