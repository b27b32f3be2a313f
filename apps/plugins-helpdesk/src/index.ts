/** What other projects (the end-to-end suite, tools) may use of plugins-helpdesk. */
export { createPluginsHelpdeskApp } from './bootstrap';
export { PluginsHelpdeskConfig } from './config';
