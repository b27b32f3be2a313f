import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ListMetaDto, PaginationQuery, TenantParams } from '@platform/http-common';
import { HOSTNAME_ALLOWED, IsHostname } from './hostname';

export class DomainParams extends TenantParams {
  @ApiProperty({ description: `${HOSTNAME_ALLOWED}; upper case and Unicode are normalised`, example: 'ajuda.acme-atendimento.com.br' })
  @IsHostname()
  domainHostname!: string;
}

export class AddDomainBody {
  @ApiProperty({ description: `${HOSTNAME_ALLOWED}; stored lower-case, internationalised labels in punycode`, example: 'ajuda.acme-atendimento.com.br' })
  @IsHostname()
  domainHostname!: string;
}

export class ListDomainsQuery extends PaginationQuery(200) {}

/** A helpdesk domain as the API shows it (docs/helpdesk-domains.md, Data). */
@ApiSchema({ name: 'HelpdeskDomain' })
export class HelpdeskDomainDto {
  @ApiProperty({ example: 'ajuda.acme-atendimento.com.br', description: 'lower-case ASCII; internationalised labels in punycode' })
  domainHostname!: string;

  @ApiProperty({ nullable: true, type: String, example: '0d89c70d-ad9f-4843-b99f-6cc0252067e9', description: 'null only while the registration is in flight' })
  domainProviderID!: string | null;

  @ApiProperty({ enum: ['pending', 'active'] })
  domainStatus!: 'pending' | 'active';

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  lastCheckedAt!: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'stamped once, when the domain first turns active' })
  verifiedAt!: string | null;
}

/** The answer of adding and of refreshing a domain. */
export class DomainStatusResponse {
  @ApiProperty({ example: 'customers.helpdesk.example', description: 'where the customer points the hostname by CNAME' })
  cnameTarget!: string;

  @ApiProperty({ type: HelpdeskDomainDto })
  domain!: HelpdeskDomainDto;

  @ApiProperty({ description: 'pt-BR: what is still missing while pending, or that the domain is active' })
  statusReason!: string;
}

@ApiSchema({ name: 'DomainList' })
export class DomainListResponse {
  @ApiProperty({ type: [HelpdeskDomainDto] })
  data!: HelpdeskDomainDto[];

  @ApiProperty({ type: ListMetaDto })
  meta!: ListMetaDto;
}

@ApiSchema({ name: 'DomainRemoved' })
export class DomainRemovedResponse {
  @ApiProperty({ enum: [true] })
  deleted!: true;

  @ApiProperty({ example: 'ajuda.acme-atendimento.com.br' })
  domainHostname!: string;
}

