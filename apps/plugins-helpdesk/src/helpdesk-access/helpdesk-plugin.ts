import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HELPDESK_SETTINGS, HelpdeskSettings } from './helpdesk-settings';

/**
 * The helpdesk plugin's id, looked up once by its configured URN. A plugin's
 * id never changes, so once found it is kept; while no such plugin exists the
 * lookup is repeated, so creating the plugin needs no restart.
 */
@Injectable()
export class HelpdeskPlugin {
  private pluginID?: string;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(HELPDESK_SETTINGS) private readonly settings: HelpdeskSettings,
  ) {}

  async id(): Promise<string | undefined> {
    if (this.pluginID) return this.pluginID;
    const rows: { id: string }[] = await this.dataSource.query('SELECT id FROM plugins WHERE urn = $1', [this.settings.pluginUrn]);
    this.pluginID = rows[0]?.id;
    return this.pluginID;
  }
}
