import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { generateTestSigningKey, signOperatorToken, unsignedToken } from '../signing-keys';
import { HostileTargets } from './targets';

/** An `Authorization` header to send (none when undefined), and whether it is a forgery. */
export interface CredentialCase {
  label: string;
  header?: string;
  forged: boolean;
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

function subjectOf(jwt: string): string {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')).sub ?? randomUUID();
}

/** Flips one character of the signature: same header and claims, a signature that does not match. */
function withBrokenSignature(jwt: string): string {
  const last = jwt.at(-2) === 'A' ? 'B' : 'A';
  return `${jwt.slice(0, -2)}${last}${jwt.at(-1)}`;
}

/** The valid token's signature over claims naming another operator. */
function withSwappedClaims(jwt: string): string {
  const [header, payload, signature] = jwt.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  return `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString('base64url')}.${signature}`;
}

/**
 * The credentials hostile requests carry: the valid ones of the targets, and
 * forgeries of every kind the contract must refuse (a tampered signature,
 * `alg: none`, another key, a symmetric algorithm, the right id with a wrong
 * secret, one profile's credential presented as another's, base64 garbage).
 * Forgeries that need signing are made once, here; the rest are generated.
 */
export async function credentialCases(targets: HostileTargets): Promise<fc.Arbitrary<CredentialCase>> {
  const operatorID = subjectOf(targets.operatorToken);
  const otherKey = generateTestSigningKey();
  const symmetric = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(operatorID)
    .setIssuer('core-tenants')
    .setAudience('platform-api')
    .setExpirationTime('1h')
    .sign(randomBytes(32));
  const { plugin, pluginConnection } = targets;
  const valid: CredentialCase[] = [
    { label: 'operator token', header: `Bearer ${targets.operatorToken}`, forged: false },
    { label: 'plugin', header: `Plugin ${base64(`${plugin.id}:${plugin.token}`)}`, forged: false },
    { label: 'plugin connection', header: `PluginConnection ${base64(`${pluginConnection.id}:${pluginConnection.token}`)}`, forged: false },
  ];
  const forged: CredentialCase[] = [
    { label: 'tampered signature', header: `Bearer ${withBrokenSignature(targets.operatorToken)}`, forged: true },
    { label: 'claims swapped under a valid signature', header: `Bearer ${withSwappedClaims(targets.operatorToken)}`, forged: true },
    { label: 'alg none', header: `Bearer ${unsignedToken(operatorID)}`, forged: true },
    { label: 'token of another key', header: `Bearer ${await signOperatorToken(otherKey.privateKey, operatorID)}`, forged: true },
    { label: 'HS256 token', header: `Bearer ${symmetric}`, forged: true },
    { label: 'plugin id, wrong secret', header: `Plugin ${base64(`${plugin.id}:${plugin.token.slice(0, -1)}x`)}`, forged: true },
    { label: 'connection id, wrong secret', header: `PluginConnection ${base64(`${pluginConnection.id}:${randomBytes(32).toString('base64url')}`)}`, forged: true },
    { label: 'connection presented as plugin', header: `Plugin ${base64(`${pluginConnection.id}:${pluginConnection.token}`)}`, forged: true },
    { label: 'plugin presented as connection', header: `PluginConnection ${base64(`${plugin.id}:${plugin.token}`)}`, forged: true },
    { label: 'plugin token as bearer', header: `Bearer ${plugin.token}`, forged: true },
    { label: 'plugin id, empty secret', header: `Plugin ${base64(`${plugin.id}:`)}`, forged: true },
    { label: 'plugin, unpadded base64', header: `Plugin ${base64(`${plugin.id}:${plugin.token}`).replace(/=+$/, '')}`, forged: true },
  ];
  const scheme = fc.constantFrom('Bearer', 'Plugin', 'PluginConnection', 'bearer', 'PLUGIN', 'Basic', '');
  const garbage: fc.Arbitrary<CredentialCase> = fc.oneof(
    fc.tuple(scheme, fc.string({ unit: 'binary', maxLength: 200 })).map(([name, value]) => ({ label: 'random text', header: `${name} ${value}`, forged: true })),
    fc.tuple(scheme, fc.uint8Array({ maxLength: 120 })).map(([name, bytes]) => ({ label: 'base64 garbage', header: `${name} ${Buffer.from(bytes).toString('base64')}`, forged: true })),
    fc.tuple(scheme, fc.uuid(), fc.string({ maxLength: 64 })).map(([name, id, secret]) => ({ label: 'unknown id', header: `${name} ${base64(`${id}:${secret}`)}`, forged: true })),
    fc.integer({ min: 8, max: 136 }).map((kibibytes) => ({ label: 'huge bearer', header: `Bearer ${'A'.repeat(kibibytes * 1024)}`, forged: true })),
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<CredentialCase>({ label: 'none', forged: false }) },
    { weight: 4, arbitrary: fc.constantFrom(...valid) },
    { weight: 4, arbitrary: fc.constantFrom(...forged) },
    { weight: 2, arbitrary: garbage },
  );
}
