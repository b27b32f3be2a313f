import { describe, expect, it } from 'vitest';
import { ProvisionedHostname } from '../custom-hostnames/custom-hostname.provider';
import { domainStateOf } from './domain-state';

const TARGET = 'clientes.central-ajuda.com.br';
const hostname = (status: string, sslStatus: string, verificationErrors: string[] = []): ProvisionedHostname => ({
  id: 'id',
  hostname: 'ajuda.acme.com.br',
  status,
  sslStatus,
  verificationErrors,
  sslValidationErrors: [],
});

describe('domainStateOf', () => {
  it('is active only when both the hostname and the certificate are active', () => {
    expect(domainStateOf(hostname('active', 'active'), TARGET).status).toBe('active');
    expect(domainStateOf(hostname('active', 'pending_deployment'), TARGET).status).toBe('pending');
    expect(domainStateOf(hostname('pending', 'active'), TARGET).status).toBe('pending');
  });

  it.each([
    ['pending', 'initializing', ['custom hostname does not CNAME to this zone.'], 'cname_missing'],
    ['moved', 'active', ['custom hostname does not CNAME to this zone.'], 'cname_moved'],
    ['pending', 'pending_validation', [], 'ownership_pending'],
    ['active', 'pending_validation', [], 'certificate_validation'],
    ['active', 'initializing', [], 'certificate_validation'],
    ['active', 'pending_issuance', [], 'certificate_issuance'],
    ['active', 'pending_deployment', [], 'certificate_deployment'],
    ['pending', 'validation_timed_out', [], 'validation_timed_out'],
    ['active', 'issuance_timed_out', [], 'issuance_timed_out'],
    ['active', 'deployment_timed_out', [], 'issuance_timed_out'],
    ['active', 'expired', [], 'certificate_expired'],
    ['blocked', 'initializing', [], 'blocked'],
    ['pending_deletion', 'active', [], 'being_deleted'],
    ['active', 'inactive', [], 'provider_processing'],
  ])('hostname %s, certificate %s, errors %j: %s', (status, sslStatus, errors, reason) => {
    const state = domainStateOf(hostname(status, sslStatus, errors), TARGET);
    expect(state).toMatchObject({ status: 'pending', reason });
    expect(state.statusReason).toContain('ajuda.acme.com.br');
  });

  it('names the CNAME target when the CNAME is what is missing', () => {
    expect(domainStateOf(hostname('pending', 'initializing', ['custom hostname does not CNAME to this zone.']), TARGET).statusReason).toBe(
      `Falta o registro CNAME: no DNS do seu domínio, aponte ajuda.acme.com.br para ${TARGET}. A mudança pode levar alguns minutos para propagar.`,
    );
  });
});
