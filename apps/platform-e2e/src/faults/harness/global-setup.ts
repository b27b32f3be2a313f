import { execFileSync } from 'node:child_process';
import { prepareTemplateDatabase } from '@platform/testing';

/**
 * Runs once before the fault suite: builds the apps (`npm run build`, what
 * the replicas run) and migrates the template database each test file clones.
 */
export default async function setup(): Promise<void> {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  await prepareTemplateDatabase();
}
