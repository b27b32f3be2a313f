/** What other projects (the end-to-end suite, tools) may use of plugins-helpdesk. */
export { createPluginsHelpdeskApp, describePluginsHelpdeskApi } from './bootstrap';
export { PluginsHelpdeskConfig } from './config';
export { HostnameDirectory } from './domains/hostname-directory';
export type { HostnameEntry } from './domains/hostname-directory';
export { PendingDomainExpiry } from './domains/pending-domain-expiry';
export { SANDBOX_CLOUDFLARE_API_TOKEN, SANDBOX_CLOUDFLARE_ZONE_ID } from './config';
