import { existsSync } from 'node:fs';

/**
 * Loads `.env`, or `.env.example` when there is none, into process.env
 * without overriding variables already set (so `DATABASE_URL=... npm start` wins).
 */
export function loadLocalEnvironment(): string | undefined {
  const file = ['.env', '.env.example'].find((candidate) => existsSync(candidate));
  if (!file) return undefined;
  const given = { ...process.env };
  process.loadEnvFile(file);
  Object.assign(process.env, given);
  return file;
}
