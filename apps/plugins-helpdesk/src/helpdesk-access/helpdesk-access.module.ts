import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from '../clock';
import { HelpdeskAccess } from './helpdesk-access.service';
import { HelpdeskPlugin } from './helpdesk-plugin';
import { HELPDESK_SETTINGS, HelpdeskSettings } from './helpdesk-settings';

/** Settings, the clock and the access rule every help-center module shares. */
@Module({})
export class HelpdeskAccessModule {
  static forRoot(settings: HelpdeskSettings): DynamicModule {
    return {
      module: HelpdeskAccessModule,
      global: true,
      providers: [{ provide: HELPDESK_SETTINGS, useValue: settings }, Clock, HelpdeskPlugin, HelpdeskAccess],
      exports: [HELPDESK_SETTINGS, Clock, HelpdeskAccess],
    };
  }
}
