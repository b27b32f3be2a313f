/** What other projects (the end-to-end suite, tools) may use of services-api. */
export { createServicesApiApp, SERVICES_API_VERSION } from './bootstrap';
export { ServicesApiConfig } from './config';
export { PG_BOSS } from './jobs/jobs.module';
export { Clock } from './sign-up/clock';
