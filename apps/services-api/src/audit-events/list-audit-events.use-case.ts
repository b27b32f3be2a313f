import { Injectable } from '@nestjs/common';
import { AuditAction, AuditEventFilter, AuditEventsRepository, StoredAuditEvent } from '@platform/audit';
import { Principal, TenantAccessService } from '@platform/auth';
import { AppException } from '@platform/errors';
import { ListMetaDto, listMeta, offsetOf, PageRequest } from '@platform/http-common';
import type { AuditEventDto } from './audit-event.dto';

export interface ListAuditEventsCommand {
  principal: Principal;
  tenantID: string;
  page: PageRequest;
  action?: AuditAction;
  actorID?: string;
  /** As sent (RFC 3339, checked by the query DTO). */
  from?: string;
  to?: string;
}

export interface AuditEventPage {
  data: AuditEventDto[];
  meta: ListMetaDto;
}

function toDto(row: StoredAuditEvent): AuditEventDto {
  return {
    auditEventID: row.id,
    tenantID: row.tenantID,
    action: row.action,
    actor: { kind: row.actorKind, id: row.actorID },
    target: { kind: row.targetKind, id: row.targetID },
    summary: row.summary,
    requestID: row.requestID,
    occurredAt: row.occurredAt.toISOString(),
  };
}

/**
 * The tenant's audit log, newest first, for its owners only: 403 1004 for
 * members, operators of other tenants, plugins and connections (none of them
 * owns a tenant), 404 1062 for an unknown tenant, like the other owner-only
 * operations.
 */
@Injectable()
export class ListAuditEventsUseCase {
  constructor(
    private readonly access: TenantAccessService,
    private readonly events: AuditEventsRepository,
  ) {}

  async execute(command: ListAuditEventsCommand): Promise<AuditEventPage> {
    const from = command.from === undefined ? undefined : new Date(command.from);
    const to = command.to === undefined ? undefined : new Date(command.to);
    // A range that ends before it starts is bad input: refused before access, like every validation error.
    if (from && to && from.getTime() > to.getTime()) {
      throw AppException.validation([{ field: 'from', received: command.from!, allowed: 'date-time not after to' }]);
    }
    const scope = await this.access.require(command.principal, command.tenantID, { ownerOnly: true, tenantNotFoundIs404: true });
    const filter: AuditEventFilter = { action: command.action, actorID: command.actorID, from, to };
    const totalCount = await this.events.count(scope, filter);
    const offset = offsetOf(command.page, totalCount);
    const found = offset === undefined ? [] : await this.events.page(scope, filter, command.page.perPage, offset);
    return { data: found.map(toDto), meta: listMeta(command.page, totalCount, found.length) };
  }
}
