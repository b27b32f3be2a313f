import { IsPort, OperatorTokenVerificationConfig } from '@platform/config';

/** plugins-helpdesk's environment (README, Configuration). */
export class PluginsHelpdeskConfig extends OperatorTokenVerificationConfig {
  @IsPort()
  PLUGINS_HELPDESK_PORT = 3001;
}
