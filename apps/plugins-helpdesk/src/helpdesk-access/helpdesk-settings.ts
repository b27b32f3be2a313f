/** What the help-center modules take from the app's configuration. */
export interface HelpdeskSettings {
  /** URN of the plugin record that is the helpdesk plugin. */
  pluginUrn: string;
  /** Where customers point their hostname by CNAME. */
  cnameTarget: string;
}

export const HELPDESK_SETTINGS = Symbol('HELPDESK_SETTINGS');
