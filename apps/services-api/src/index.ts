/** What other projects (the end-to-end suite, tools) may use of services-api. */
export { createServicesApiApp, SERVICES_API_VERSION } from './bootstrap';
export { ServicesApiConfig } from './config';
/** The list's SQL, for the benchmark's EXPLAIN output. */
export { CampaignModelsListRepository } from './campaign-models/campaign-models-list.repository';
