import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiPartialContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Principal } from '@platform/auth';
import { ApiErrors, pageRequestOf, pageStatus, TenantParams } from '@platform/http-common';
import type { FastifyReply } from 'fastify';
import { AddDomainUseCase } from './add-domain.use-case';
import { AddDomainBody, DomainListResponse, DomainParams, DomainRemovedResponse, DomainStatusResponse, ListDomainsQuery } from './domain.dto';
import { normalizeHostname } from './hostname';
import { ListDomainsUseCase } from './list-domains.use-case';
import { RefreshDomainUseCase } from './refresh-domain.use-case';
import { RemoveDomainUseCase } from './remove-domain.use-case';
import { Idempotent, IdempotencyClaim, IdempotencyKeyClaim } from '@platform/idempotency';

/** What the helpdesk access check adds to the guard's errors: the tenant must have the helpdesk plugin connected. */
const ACCESS_ERRORS = ['TenantNotConnected'] as const;

/** Validated hostnames always normalise; the fallback only satisfies the type. */
const normalized = (hostname: string) => normalizeHostname(hostname) ?? hostname;

@ApiTags('Helpdesk domains')
@Controller('helpdesk/v1/tenants/:tenantID/helpdesk/domains')
@Auth('operator', 'plugin', 'pluginConnection')
export class DomainsController {
  constructor(
    private readonly addDomain: AddDomainUseCase,
    private readonly listDomains: ListDomainsUseCase,
    private readonly refreshDomain: RefreshDomainUseCase,
    private readonly removeDomain: RemoveDomainUseCase,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'addHelpdeskDomain',
    summary: 'Add a custom domain to the help center',
    description:
      'Registers the hostname at the domain provisioning provider and stores it pending. Among operators, only owners of the tenant add domains; ' +
      'a tenant has at most HELPDESK_MAX_DOMAINS_PER_TENANT (409 1972), and a domain still pending HELPDESK_PENDING_DOMAIN_TTL_DAYS after it was added is removed.',
  })
  @ApiErrors(...ACCESS_ERRORS, 'DomainHostnameTaken', 'DomainLimitReached', 'DomainHostnameRefused', 'DomainProvisioning')
  @Idempotent()
  @ApiCreatedResponse({ type: DomainStatusResponse })
  add(
    @CurrentPrincipal() principal: Principal,
    @Param() params: TenantParams,
    @Body() body: AddDomainBody,
    @IdempotencyClaim() idempotency: IdempotencyKeyClaim,
  ): Promise<DomainStatusResponse> {
    return this.addDomain.execute({ principal, tenantID: params.tenantID, hostname: normalized(body.domainHostname), idempotency });
  }

  @Get()
  @ApiOperation({ operationId: 'listHelpdeskDomains', summary: "List the help center's domains", description: 'By hostname.' })
  @ApiErrors(...ACCESS_ERRORS)
  @ApiOkResponse({ type: DomainListResponse })
  @ApiPartialContentResponse({ type: DomainListResponse, description: 'more pages are available' })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param() params: TenantParams,
    @Query() query: ListDomainsQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DomainListResponse> {
    const list = await this.listDomains.execute({ principal, tenantID: params.tenantID, page: pageRequestOf(query) });
    void reply.status(pageStatus(list.meta));
    return list;
  }

  /** Operation 12 (docs/helpdesk-domains.md, Refresh). */
  @Post(':domainHostname/refresh')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'refreshHelpdeskDomain',
    summary: 'Refresh helpdesk domain',
    description: 'Re-checks the domain at the provider, at most once per domain every 10 seconds.',
  })
  @ApiErrors(...ACCESS_ERRORS, 'HelpdeskNotFound', 'DomainRefreshThrottled', 'DomainProvisioning')
  @ApiOkResponse({ type: DomainStatusResponse })
  async refresh(@CurrentPrincipal() principal: Principal, @Param() params: DomainParams): Promise<DomainStatusResponse> {
    return this.refreshDomain.execute({ principal, tenantID: params.tenantID, hostname: normalized(params.domainHostname) });
  }

  /** Operation 13 (docs/helpdesk-domains.md, Remove). */
  @Delete(':domainHostname')
  @ApiOperation({
    operationId: 'removeHelpdeskDomain',
    summary: 'Remove helpdesk domain',
    description: 'Deletes the custom hostname at the provider, then drops the entry; if the provider fails (502 1122) the entry stays.',
  })
  @ApiErrors(...ACCESS_ERRORS, 'HelpdeskNotFound', 'DomainProvisioning')
  @ApiOkResponse({ type: DomainRemovedResponse })
  remove(@CurrentPrincipal() principal: Principal, @Param() params: DomainParams): Promise<DomainRemovedResponse> {
    return this.removeDomain.execute({ principal, tenantID: params.tenantID, hostname: normalized(params.domainHostname) });
  }
}
