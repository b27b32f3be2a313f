import { describe, expect, it } from 'vitest';
import { MessageAuthenticator } from './message-authentication';

/**
 * Messages sealed by the MessageAuthenticator of the release before
 * libs/keyring, byte for byte: during a rolling deploy replicas of both
 * releases talk, so each must verify what the other signs.
 */
const SECRET = 'transport-secret-of-the-release-before-keyring-01';
const NEXT = 'transport-secret-taking-over-after-the-keyring-02';
const signedAt = 1_764_180_000_000;
const channel = 'production:operator-tokens.issue';
const packet = { pattern: 'operator-tokens.issue', id: 'a1', data: { operatorID: 'o1', name: 'Zoë' }, metadata: { 'x-actor': 'operator:o1', 'x-request-id': 'r1' } };
const REQUEST = {
  signed:
    '{"direction":"request","channel":"production:operator-tokens.issue","signedAt":1764180000000,"packet":{"pattern":"operator-tokens.issue","id":"a1","data":{"operatorID":"o1","name":"Zoë"},"metadata":{"x-actor":"operator:o1","x-request-id":"r1"}}}',
  mac: 'z3ghZTs83cr56iekcluYvUPu7E36UNfMOvJ-8onV7e4',
};
/** Signed during a rotation's second step: TRANSPORT_SECRET the next key, TRANSPORT_SECRET_ACCEPTED the old one. */
const REPLY = {
  signed: '{"direction":"reply","channel":"production:operator-tokens.issue.reply","signedAt":1764180000000,"packet":{"id":"a1","response":{"token":"x"},"isDisposed":true}}',
  mac: 'OIhrfUgwFV2Lmb0Pqbjfq6IWJ5Y3l-7JxzScTjeymFk',
};

describe('MessageAuthenticator and the messages of the release before libs/keyring', () => {
  it('opens them, and signs the same bytes they were sent with', () => {
    const authenticator = new MessageAuthenticator({ secret: SECRET, maxAgeMs: 5_000 }, () => signedAt);
    expect(authenticator.open('request', channel, REQUEST)).toEqual({ ok: true, packet });
    expect(authenticator.seal('request', channel, packet)).toEqual(REQUEST);
  });

  it('opens those signed with the other key of a rotation, in either step, and refuses them once it is dropped', () => {
    const reply = 'production:operator-tokens.issue.reply';
    expect(new MessageAuthenticator({ secret: SECRET, acceptedSecret: NEXT, maxAgeMs: 5_000 }, () => signedAt).open('reply', reply, REPLY).ok).toBe(true);
    expect(new MessageAuthenticator({ secret: NEXT, maxAgeMs: 5_000 }, () => signedAt).open('reply', reply, REPLY).ok).toBe(true);
    expect(new MessageAuthenticator({ secret: SECRET, maxAgeMs: 5_000 }, () => signedAt).open('reply', reply, REPLY)).toEqual({ ok: false, reason: 'bad_mac' });
  });
});
