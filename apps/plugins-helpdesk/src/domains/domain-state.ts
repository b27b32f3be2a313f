import type { HelpdeskDomainStatus } from '@platform/database';
import { ProvisionedHostname } from '../custom-hostnames/custom-hostname.provider';

/** Why a domain is (not yet) serving, one entry per text the API can answer. */
export type PendingReason =
  | 'cname_missing'
  | 'cname_moved'
  | 'ownership_pending'
  | 'certificate_validation'
  | 'certificate_issuance'
  | 'certificate_deployment'
  | 'validation_timed_out'
  | 'issuance_timed_out'
  | 'certificate_expired'
  | 'blocked'
  | 'being_deleted'
  | 'provider_processing';

export interface DomainState {
  status: HelpdeskDomainStatus;
  /** pt-BR, for the help center's administrator. */
  statusReason: string;
  /** Undefined when active. */
  reason?: PendingReason;
}

const CNAME_ERROR = /cname/i;

/**
 * The provider's answer decides the state (docs/helpdesk-domains.md, Refresh): `active` only
 * when both the hostname and its certificate are active there. Otherwise the
 * domain is `pending` and the reason names the first thing still missing, in
 * the order the customer has to fix them: DNS first, then ownership, then the
 * certificate.
 */
export function domainStateOf(provisioned: ProvisionedHostname, cnameTarget: string): DomainState {
  const host = provisioned.hostname;
  if (provisioned.status === 'active' && provisioned.sslStatus === 'active') {
    return { status: 'active', statusReason: `Domínio ativo: a central de ajuda responde em https://${host} com certificado TLS válido.` };
  }
  const reason = pendingReasonOf(provisioned);
  return { status: 'pending', reason, statusReason: PENDING_TEXTS[reason](host, cnameTarget, provisioned) };
}

function pendingReasonOf(provisioned: ProvisionedHostname): PendingReason {
  const { status, sslStatus } = provisioned;
  if (status === 'blocked' || status === 'pending_blocked' || status === 'test_blocked') return 'blocked';
  if (status === 'pending_deletion' || status === 'deleted') return 'being_deleted';
  if (status === 'moved') return 'cname_moved';
  if (provisioned.verificationErrors.some((error) => CNAME_ERROR.test(error))) return 'cname_missing';
  if (sslStatus === 'validation_timed_out' || sslStatus === 'initializing_timed_out') return 'validation_timed_out';
  if (sslStatus === 'issuance_timed_out' || sslStatus === 'deployment_timed_out') return 'issuance_timed_out';
  if (status !== 'active') return 'ownership_pending';
  if (sslStatus === 'initializing' || sslStatus === 'pending_validation') return 'certificate_validation';
  if (sslStatus === 'pending_issuance') return 'certificate_issuance';
  if (sslStatus === 'pending_deployment' || sslStatus === 'holding_deployment' || sslStatus === 'staging_deployment') return 'certificate_deployment';
  if (sslStatus === 'expired' || sslStatus === 'pending_expiration') return 'certificate_expired';
  return 'provider_processing';
}

type ReasonText = (host: string, cnameTarget: string, provisioned: ProvisionedHostname) => string;

/** The texts, in pt-BR (docs/helpdesk-domains.md lists them). */
export const PENDING_TEXTS: Record<PendingReason, ReasonText> = {
  cname_missing: (host, target) =>
    `Falta o registro CNAME: no DNS do seu domínio, aponte ${host} para ${target}. A mudança pode levar alguns minutos para propagar.`,
  cname_moved: (host, target) =>
    `O registro CNAME de ${host} deixou de apontar para ${target}. Restaure o CNAME para ${target} para voltar a servir a central de ajuda.`,
  ownership_pending: (host) =>
    `O CNAME foi encontrado; falta concluir a verificação de propriedade de ${host}. Aguarde alguns minutos e atualize de novo.`,
  certificate_validation: (host) =>
    `Domínio verificado; falta validar o controle de ${host} para emitir o certificado TLS. Mantenha o CNAME no lugar.`,
  certificate_issuance: (host) => `Domínio verificado; o certificado TLS de ${host} está em emissão.`,
  certificate_deployment: (host) => `O certificado TLS de ${host} foi emitido e está sendo implantado na rede. Falta pouco.`,
  validation_timed_out: (host, target) =>
    `A validação do certificado de ${host} expirou antes de o domínio apontar para ${target}. Confira o CNAME, remova o domínio e adicione-o de novo.`,
  issuance_timed_out: (host) =>
    `A emissão do certificado TLS de ${host} excedeu o prazo do provedor. Atualize de novo em alguns minutos; se persistir, remova o domínio e adicione-o de novo.`,
  certificate_expired: (host) => `O certificado TLS de ${host} expirou e está sendo renovado.`,
  blocked: (host) => `O provedor bloqueou o domínio ${host}. Entre em contato com o suporte para liberá-lo.`,
  being_deleted: (host) => `O domínio ${host} está sendo removido no provedor.`,
  provider_processing: (host, _target, provisioned) =>
    `O provedor ainda está ativando ${host} (domínio: ${provisioned.status}; certificado: ${provisioned.sslStatus}). Atualize de novo em alguns minutos.`,
};
