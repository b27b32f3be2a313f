import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsCanonicalUuid, TenantParamsWith } from '@platform/http-common';

export class PluginConnectionParams extends TenantParamsWith('pluginConnectionID') {}

export class InstallPluginBody {
  @ApiProperty({ format: 'uuid', description: 'The plugin to install on the tenant' })
  @IsCanonicalUuid()
  pluginID!: string;
}

@ApiSchema({ name: 'InstalledPluginConnection' })
export class InstalledPluginConnectionDto {
  @ApiProperty({ format: 'uuid' })
  pluginConnectionID!: string;

  @ApiProperty({ description: 'Shown once, never again: only its hash is stored. Use it as `PluginConnection base64(pluginConnectionID:token)`.' })
  pluginConnectionToken!: string;

  @ApiProperty({ format: 'uuid' })
  pluginID!: string;

  @ApiProperty({ enum: ['plain', 'paid', 'hosted'] })
  kind!: 'plain' | 'paid' | 'hosted';
}

export class InstalledPluginConnectionResponse {
  @ApiProperty({ type: InstalledPluginConnectionDto })
  data!: InstalledPluginConnectionDto;
}

@ApiSchema({ name: 'DeletedPluginConnection' })
export class DeletedPluginConnectionDto {
  @ApiProperty({ enum: [true] })
  deleted!: true;
}

export class DeletedPluginConnectionResponse {
  @ApiProperty({ type: DeletedPluginConnectionDto })
  data!: DeletedPluginConnectionDto;
}
