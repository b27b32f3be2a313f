import { execFileSync } from 'node:child_process';
import { prepareTemplateDatabase, provideTestServices } from '@platform/testing';

/**
 * Runs once before the fault suite: builds the apps (`npm run build`, what
 * the replicas run), finds PostgreSQL (the machine's, or an embedded one where
 * it has none) and migrates the template database each test file clones.
 * Returns the teardown.
 */
export default async function setup(): Promise<() => Promise<void>> {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  const stopTestServices = await provideTestServices();
  await prepareTemplateDatabase();
  return stopTestServices;
}
