import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

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

/**
 * Validates `env` against a configuration class before the app boots.
 * Every problem names its variable, so a missing or malformed value stops the
 * app with a message an operator can act on.
 */
export function loadConfig<T extends object>(configClass: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const plain = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = plainToInstance(configClass, plain, { exposeDefaultValues: true, excludeExtraneousValues: false });
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  if (errors.length > 0) throw new ConfigurationError(errors.map(describe));
  return config;
}
