import { prepareTemplateDatabase, provideTestServices } from '@platform/testing';

/**
 * Runs once per test run: PostgreSQL and Redis for the tests (the machine's,
 * or embedded ones where it has none), then the migrated template database
 * every test file clones. Returns the teardown.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const stopTestServices = await provideTestServices();
  await prepareTemplateDatabase();
  return stopTestServices;
}
