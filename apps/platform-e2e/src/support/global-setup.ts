import { prepareTemplateDatabase } from '@platform/testing';

/** Runs once per test run: migrate the template database every test file clones. */
export default async function setup(): Promise<void> {
  await prepareTemplateDatabase();
}
