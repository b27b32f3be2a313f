/**
 * Secrets that production refuses when they are examples: one rule for every
 * app, applied by `loadConfig` to the fields marked `@Secret()` when
 * `NODE_ENV` is `production`. Outside production the sandbox and test values
 * are exactly what is wanted, so nothing is checked there.
 */

export interface SecretOptions {
  /**
   * Fewest characters a real value has. 16 by default: provider API keys and
   * tokens are far longer, so anything shorter is a stand-in. 0 for a URL that
   * may carry credentials, where only the placeholder markers apply.
   */
  minLength?: number;
}

export const DEFAULT_SECRET_MIN_LENGTH = 16;

/**
 * What marks a value as an example rather than a secret, and why. The repo's
 * examples all carry one: `change-me` in k8s/base/secret.example.yaml, `sandbox`
 * in .env.example and the provider sandbox, `sk_test_` for Stripe test-mode
 * keys, `test-` and the `0123456789` filler in the tests' values, and the
 * development sign-up key. A random secret containing one of these by
 * chance is not a practical concern.
 */
const PLACEHOLDER_MARKERS: { pattern: RegExp; reason: string }[] = [
  { pattern: /change[-_ ]?me/i, reason: 'a placeholder ("change-me")' },
  { pattern: /sandbox/i, reason: 'a sandbox value' },
  { pattern: /^(sk|rk)_test_/, reason: 'a test-mode key' },
  { pattern: /^test[-_]|0123456789/i, reason: 'a test value' },
  { pattern: /development-only/i, reason: 'the development value' },
];

/** Own secret fields of each configuration class; subclasses inherit their parents'. */
const secretFields = new WeakMap<object, Map<string, Required<SecretOptions>>>();

/** Marks a configuration field as a secret: in production, examples and short values stop the app. */
export function Secret(options: SecretOptions = {}): PropertyDecorator {
  return (target, key) => {
    const own = secretFields.get(target) ?? new Map<string, Required<SecretOptions>>();
    own.set(String(key), { minLength: options.minLength ?? DEFAULT_SECRET_MIN_LENGTH });
    secretFields.set(target, own);
  };
}

/** The secret fields of a configuration object, its class's and its parents'. */
function secretFieldsOf(config: object): Map<string, Required<SecretOptions>> {
  const fields = new Map<string, Required<SecretOptions>>();
  for (let prototype = Object.getPrototypeOf(config); prototype && prototype !== Object.prototype; prototype = Object.getPrototypeOf(prototype)) {
    for (const [name, options] of secretFields.get(prototype) ?? []) if (!fields.has(name)) fields.set(name, options);
  }
  return fields;
}

/** The variables a configuration class marks `@Secret()`, its parents' included. */
export function secretVariablesOf(configClass: new () => object): string[] {
  return [...secretFieldsOf(new configClass()).keys()];
}

/** Why `value` cannot be a production secret, or undefined when it can. */
export function placeholderReason(value: string, options: SecretOptions = {}): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return 'empty';
  const marker = PLACEHOLDER_MARKERS.find(({ pattern }) => pattern.test(trimmed));
  if (marker) return marker.reason;
  const minLength = options.minLength ?? DEFAULT_SECRET_MIN_LENGTH;
  if (trimmed.length < minLength) return `shorter than ${minLength} characters`;
  return undefined;
}

/**
 * One problem per secret field whose value production must refuse, naming
 * the variable and never showing the value. Unset fields are left to the
 * field's own validation (required or optional).
 */
export function refusedSecrets(config: object): { name: string; problem: string }[] {
  const refused: { name: string; problem: string }[] = [];
  for (const [name, options] of secretFieldsOf(config)) {
    const value: unknown = (config as Record<string, unknown>)[name];
    if (typeof value !== 'string') continue;
    const reason = placeholderReason(value, options);
    if (reason) refused.push({ name, problem: `${name} is refused in production: ${reason}; set the real secret` });
  }
  return refused;
}
