import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import type { SqlRunner } from '@platform/database';
import type { HelpdeskDomainStatus } from '@platform/database';
import { WebhookEvents } from '@platform/webhooks';

/**
 * The helpdesk domain events of docs/webhooks.md, each emitted in the
 * transaction of its change (`runner`). A domain's events share one subject,
 * so an endpoint receives them in the order they occurred.
 */
@Injectable()
export class DomainEvents {
  constructor(private readonly webhooks: WebhookEvents) {}

  async added(runner: SqlRunner, scope: TenantScope, domain: { id: string; hostname: string; status: HelpdeskDomainStatus }): Promise<void> {
    await this.webhooks.emit(runner, scope, {
      type: 'helpdeskDomain.added',
      subject: subjectOf(domain.id),
      data: { helpdeskDomainID: domain.id, domain: domain.hostname, status: domain.status },
    });
  }

  /** Only for a real change: a check that finds the status as it was emits nothing. */
  async statusChanged(
    runner: SqlRunner,
    scope: TenantScope,
    domain: { id: string; hostname: string; status: HelpdeskDomainStatus; previousStatus: HelpdeskDomainStatus },
  ): Promise<void> {
    if (domain.previousStatus === domain.status) return;
    await this.webhooks.emit(runner, scope, {
      type: 'helpdeskDomain.statusChanged',
      subject: subjectOf(domain.id),
      data: { helpdeskDomainID: domain.id, domain: domain.hostname, previousStatus: domain.previousStatus, status: domain.status },
    });
  }

  async removed(runner: SqlRunner, scope: TenantScope, domain: { id: string; hostname: string }): Promise<void> {
    await this.webhooks.emit(runner, scope, {
      type: 'helpdeskDomain.removed',
      subject: subjectOf(domain.id),
      data: { helpdeskDomainID: domain.id, domain: domain.hostname },
    });
  }
}

const subjectOf = (helpdeskDomainID: string) => `helpdeskDomain:${helpdeskDomainID}`;
