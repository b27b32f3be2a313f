import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { refusedSecrets } from './secret';

/** Thrown when the environment does not satisfy an app's configuration class. */
export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigurationError';
  }
}

function describe(error: ValidationError): string {
  const received = error.value === undefined ? 'missing' : 'malformed';
  const reasons = Object.values(error.constraints ?? {}).join('; ');
  return `${error.property} is ${received}: ${reasons}`;
}

const isProduction = (config: object) => (config as { NODE_ENV?: unknown }).NODE_ENV === 'production';

/**
 * Validates `env` against a configuration class before the app boots.
 * Every problem names its variable, so a missing or malformed value stops the
 * app with a message an operator can act on. In production, fields marked
 * `@Secret()` must also hold a real secret, not an example (./secret.ts).
 */
export function loadConfig<T extends object>(configClass: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const plain = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = plainToInstance(configClass, plain, { exposeDefaultValues: true, excludeExtraneousValues: false });
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  const malformed = new Set(errors.map((error) => error.property));
  // A malformed secret is named once, by its own validation.
  const refused = isProduction(config) ? refusedSecrets(config).filter(({ name }) => !malformed.has(name)) : [];
  const problems = [...errors.map(describe), ...refused.map(({ problem }) => problem)];
  if (problems.length > 0) throw new ConfigurationError(problems);
  return config;
}
