import { ValidateBy, ValidationArguments } from 'class-validator';

/**
 * Whether a Redis URL authenticates: it carries a password (with an ACL
 * user, or the default user's). Whoever reaches an unauthenticated Redis
 * owns the platform's caches, rate limits and transport (docs/security.md,
 * The cluster), so production refuses one.
 */
export function redisUrlCarriesPassword(url: string): boolean {
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
}

/** REDIS_URL, in production: a URL without a password is refused at boot. */
export function CarriesRedisCredentialsInProduction(): PropertyDecorator {
  return ValidateBy({
    name: 'carriesRedisCredentialsInProduction',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        (args?.object as { NODE_ENV?: unknown }).NODE_ENV !== 'production' || (typeof value === 'string' && redisUrlCarriesPassword(value)),
      defaultMessage: () =>
        'must carry credentials in production: redis://<acl user>:<password>@host:port or rediss://… (one ACL user per app, docs/deployment.md)',
    },
  });
}
