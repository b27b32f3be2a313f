import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { firstRow, sql, SqlRunner, TransactionalRepository } from '@platform/database';
import type { NotificationPreferencesDto } from './notification-preferences.dto';

interface PreferencesRow {
  assigned: boolean;
  contactWrote: boolean;
}

const READ = sql<PreferencesRow, [tenantID: string, operatorID: string]>(
  `SELECT assigned, contact_wrote AS "contactWrote" FROM notification_mail_preferences WHERE tenant_id = $1 AND operator_id = $2`,
);

const WRITE = sql<PreferencesRow, [tenantID: string, operatorID: string, assigned: boolean, contactWrote: boolean]>(
  `INSERT INTO notification_mail_preferences (tenant_id, operator_id, assigned, contact_wrote) VALUES ($1, $2, $3, $4)
   ON CONFLICT (tenant_id, operator_id) DO UPDATE SET assigned = EXCLUDED.assigned, contact_wrote = EXCLUDED.contact_wrote, updated_at = now()
   RETURNING assigned, contact_wrote AS "contactWrote"`,
);

/** Which events each operator is mailed about, per tenant: no row means every kind (the defaults). */
@Injectable()
export class NotificationPreferencesRepository extends TransactionalRepository {
  async read(scope: TenantScope, operatorID: string, runner: SqlRunner = this.dataSource): Promise<NotificationPreferencesDto> {
    return preferencesOf(await firstRow(runner, READ, [scope.tenantID, operatorID]));
  }

  async write(scope: TenantScope, operatorID: string, preferences: NotificationPreferencesDto, runner: SqlRunner = this.dataSource): Promise<NotificationPreferencesDto> {
    return preferencesOf(await firstRow(runner, WRITE, [scope.tenantID, operatorID, preferences.email.assigned, preferences.email.contactWrote]));
  }
}

function preferencesOf(row: PreferencesRow | undefined): NotificationPreferencesDto {
  return { email: { assigned: row?.assigned ?? true, contactWrote: row?.contactWrote ?? true } };
}
