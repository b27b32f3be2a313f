import { AppException } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { parseAuthorizationHeader } from './authorization-header';
import { encodeIdAndSecret } from './secret-tokens';

const id = '3b241101-e2bb-4255-8caf-4136c566a962';

describe('parseAuthorizationHeader', () => {
  it('reads the three profiles', () => {
    expect(parseAuthorizationHeader('Bearer a.b.c')).toEqual({ profile: 'operator', jwt: 'a.b.c' });
    expect(parseAuthorizationHeader(`Plugin ${encodeIdAndSecret(id, 's3cret')}`)).toEqual({ profile: 'plugin', id, secret: 's3cret' });
    expect(parseAuthorizationHeader(`PluginConnection ${encodeIdAndSecret(id.toUpperCase(), 'a:b')}`)).toEqual({
      profile: 'pluginConnection',
      id,
      secret: 'a:b',
    });
  });

  it.each([
    ['missing', undefined],
    ['repeated', ['Bearer a', 'Bearer b']],
    ['empty', ''],
    ['scheme only', 'Bearer'],
    ['three parts', 'Bearer a b'],
    ['unknown scheme', 'Token abc'],
    ['not base64', 'Plugin ***'],
    ['base64url alphabet', `Plugin ${encodeIdAndSecret(id, '??>>').replaceAll('+', '-').replaceAll('/', '_')}`],
    ['no colon', `Plugin ${Buffer.from(id).toString('base64')}`],
    ['bad id', `Plugin ${encodeIdAndSecret('123', 'x')}`],
    ['empty secret', `Plugin ${encodeIdAndSecret(id, '')}`],
    ['oversized', `Bearer ${'a'.repeat(9000)}`],
  ])('refuses a %s header with 401 1003', (_, header) => {
    let thrown: unknown;
    try {
      parseAuthorizationHeader(header);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppException);
    expect((thrown as AppException).code).toBe(1003);
  });
});
