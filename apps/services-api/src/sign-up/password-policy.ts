import { ValidateBy, ValidationOptions } from 'class-validator';

/** docs/sign-up.md, Password policy. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 64;
/** bcrypt reads only the first 72 bytes: longer (multi-byte) passwords would be silently truncated. */
export const PASSWORD_MAX_BYTES = 72;

/**
 * Passwords refused whatever their length: the most common ones in public
 * breach lists that are 10+ characters long, plus the product's own words.
 * Compared case-insensitively.
 */
const BLOCKLIST = new Set([
  '1234567890',
  '0123456789',
  '12345678910',
  '123456789012',
  '0987654321',
  '1111111111',
  '0000000000',
  '1q2w3e4r5t',
  '1qaz2wsx3edc',
  'qwertyuiop',
  'qwerty12345',
  'qwerty123456',
  'asdfghjkl1',
  'password12',
  'password123',
  'password1234',
  'passw0rd123',
  'iloveyou12',
  'abcdefghij',
  'abc1234567',
  'senha12345',
  'senha123456',
  'mudar12345',
  'brasil2026',
  'atendimento',
  'atendimento1',
  'atendimento123',
]);

export const PASSWORD_ALLOWED = `string of ${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters (at most ${PASSWORD_MAX_BYTES} bytes), not a common password, not the e-mail address`;

export function passwordProblem(password: unknown, email: unknown): boolean {
  if (typeof password !== 'string') return true;
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) return true;
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) return true;
  const lowered = password.toLowerCase();
  if (BLOCKLIST.has(lowered)) return true;
  if (typeof email === 'string') {
    const address = email.trim().toLowerCase();
    if (lowered === address || lowered === address.split('@')[0]) return true;
  }
  return false;
}

/** The password policy, checked against the object's `operatorEmail`. */
export function IsAcceptablePassword(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAcceptablePassword',
      validator: { validate: (value, args) => !passwordProblem(value, (args?.object as { operatorEmail?: unknown }).operatorEmail) },
    },
    { ...options, message: PASSWORD_ALLOWED },
  );
}
