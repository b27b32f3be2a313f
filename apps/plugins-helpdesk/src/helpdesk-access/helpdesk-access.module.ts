import { DynamicModule, Module } from '@nestjs/common';
import { HelpdeskAccessRepository } from './helpdesk-access.repository';
import { HelpdeskAccess } from './helpdesk-access.service';
import { HelpdeskPlugin } from './helpdesk-plugin';
import { HELPDESK_SETTINGS, HelpdeskSettings } from './helpdesk-settings';

/** Settings and the access rule every help-center module shares. */
@Module({})
export class HelpdeskAccessModule {
  static forRoot(settings: HelpdeskSettings): DynamicModule {
    return {
      module: HelpdeskAccessModule,
      global: true,
      providers: [{ provide: HELPDESK_SETTINGS, useValue: settings }, HelpdeskAccessRepository, HelpdeskPlugin, HelpdeskAccess],
      exports: [HELPDESK_SETTINGS, HelpdeskAccess],
    };
  }
}
