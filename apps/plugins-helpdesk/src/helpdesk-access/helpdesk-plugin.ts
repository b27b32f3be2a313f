import { Inject, Injectable } from '@nestjs/common';
import { HelpdeskAccessRepository } from './helpdesk-access.repository';
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
    private readonly repository: HelpdeskAccessRepository,
    @Inject(HELPDESK_SETTINGS) private readonly settings: HelpdeskSettings,
  ) {}

  async id(): Promise<string | undefined> {
    if (this.pluginID) return this.pluginID;
    this.pluginID = await this.repository.pluginIDByUrn(this.settings.pluginUrn);
    return this.pluginID;
  }
}
