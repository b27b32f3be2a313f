/** The three Authorization profiles (docs/authentication.md, Profiles). */
export const AUTH_PROFILES = ['operator', 'plugin', 'pluginConnection'] as const;
export type AuthProfile = (typeof AUTH_PROFILES)[number];

export interface OperatorPrincipal {
  kind: 'operator';
  operatorID: string;
}

export interface PluginPrincipal {
  kind: 'plugin';
  pluginID: string;
}

export interface PluginConnectionPrincipal {
  kind: 'pluginConnection';
  pluginConnectionID: string;
  pluginID: string;
  /** The one tenant whose data the connection may reach. */
  tenantID: string;
}

/** Who is calling, once the credential has been verified. */
export type Principal = OperatorPrincipal | PluginPrincipal | PluginConnectionPrincipal;
