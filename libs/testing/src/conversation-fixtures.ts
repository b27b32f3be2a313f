import { randomUUID } from 'node:crypto';
import type { MessageDirection, NotificationCategory, ShortcutContent, ShortcutScope } from '@platform/database';
import type { Queryable } from './fixtures';

export interface ShortcutFixtureOptions {
  scope: ShortcutScope;
  operatorID: string;
  bang: string;
  preview?: string;
  contents?: ShortcutContent[];
  organizationID?: string;
}

export interface SessionFixtureOptions {
  contactID: string;
  inboxID: string;
  operatorID?: string | null;
  participants?: string[];
  listed?: boolean;
  active?: boolean;
  channel?: string;
  type?: string;
  createdAt?: Date;
  closedAt?: Date | null;
}

export interface MessageFixtureOptions {
  direction?: MessageDirection;
  key?: string;
  status?: number;
  value?: unknown;
  createdAt?: Date;
}

export interface NotificationFixtureOptions {
  operatorID: string;
  category: NotificationCategory;
  inboxID?: string;
  sessionID?: string;
  read?: boolean;
}

/**
 * Rows of the conversation side of a tenant (shortcuts, contacts, inboxes,
 * sessions, messages, summaries, operators' presence, notifications) straight into the database,
 * for tests, the demo seed and benchmarks. Counters and a session's last
 * message follow by the database's own triggers.
 */
export class ConversationFixtures {
  constructor(private readonly dataSource: Queryable) {}

  async shortcut(tenantID: string, options: ShortcutFixtureOptions): Promise<string> {
    const contents = options.contents ?? [{ contentID: randomUUID(), contentKey: 'text', contentValue: options.preview ?? options.bang }];
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO shortcuts (tenant_id, organization_id, operator_id, scope, bang, preview, contents)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [tenantID, options.organizationID ?? tenantID, options.operatorID, options.scope, options.bang, options.preview ?? '', JSON.stringify(contents)],
    );
    return rows[0].id;
  }

  async contact(tenantID: string, name = 'Maria Souza'): Promise<string> {
    const rows: { id: string }[] = await this.dataSource.query('INSERT INTO contacts (tenant_id, name) VALUES ($1, $2) RETURNING id', [tenantID, name]);
    return rows[0].id;
  }

  /** An inbox; the plugin connection that posts to it when given (docs/conversations.md#inboxes). */
  async inbox(tenantID: string, options: { name?: string; channel?: string; pluginConnectionID?: string } = {}): Promise<string> {
    const rows: { id: string }[] = await this.dataSource.query('INSERT INTO inboxes (tenant_id, name, channel, plugin_connection_id) VALUES ($1, $2, $3, $4) RETURNING id', [
      tenantID,
      options.name ?? 'WhatsApp Vendas',
      options.channel ?? 'whatsapp',
      options.pluginConnectionID ?? null,
    ]);
    return rows[0].id;
  }

  async session(tenantID: string, options: SessionFixtureOptions): Promise<string> {
    const createdAt = options.createdAt ?? new Date();
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO sessions (tenant_id, contact_id, inbox_id, operator_id, operator_participants_ids, channel, type, active, listed,
                             last_activity_at, created_at, updated_at, closed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $10, $11) RETURNING id`,
      [
        tenantID,
        options.contactID,
        options.inboxID,
        options.operatorID ?? null,
        options.participants ?? [],
        options.channel ?? 'whatsapp',
        options.type ?? 'chat',
        options.active ?? true,
        options.listed ?? true,
        createdAt,
        options.closedAt ?? null,
      ],
    );
    return rows[0].id;
  }

  /** A message; it becomes the session's last message when it is the newest. */
  async message(tenantID: string, sessionID: string, options: MessageFixtureOptions = {}): Promise<string> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO messages (tenant_id, session_id, direction, key, status, value, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`,
      [
        tenantID,
        sessionID,
        options.direction ?? 'inbound',
        options.key ?? 'text',
        options.status ?? 0,
        JSON.stringify(options.value === undefined ? 'Olá!' : options.value),
        options.createdAt ?? new Date(),
      ],
    );
    return rows[0].id;
  }

  async summary(tenantID: string, sessionID: string, summary: Record<string, unknown>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO session_summaries (session_id, tenant_id, summary) VALUES ($1, $2, $3)
       ON CONFLICT (session_id) DO UPDATE SET summary = excluded.summary, updated_at = now()`,
      [sessionID, tenantID, JSON.stringify(summary)],
    );
  }

  /**
   * An operator's presence, chosen and in effect, as the presence routes
   * would record it (`changedAt` defaults to now): routing assigns to
   * `online` operators and requeues the sessions of those `offline` past an
   * inbox's limit.
   */
  async presence(tenantID: string, operatorID: string, status: 'online' | 'busy' | 'away' | 'offline', changedAt: Date = new Date()): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO operator_presence (tenant_id, operator_id, chosen_status, status, changed_at) VALUES ($1, $2, $3, $3, $4)
       ON CONFLICT (tenant_id, operator_id) DO UPDATE SET chosen_status = excluded.chosen_status, status = excluded.status, changed_at = excluded.changed_at`,
      [tenantID, operatorID, status, changedAt],
    );
    // Chosen and in effect alike: one not offline also holds a socket lease
    // live and active for good, so that the presence reconciler of a booted
    // services-api keeps that status in effect (docs/presence.md#rules).
    if (status !== 'offline') {
      await this.dataSource.query(
        `INSERT INTO operator_socket_leases (socket_id, tenant_id, operator_id, seen_at, last_activity_at)
         SELECT gen_random_uuid(), $1, $2, 'infinity', 'infinity'
         WHERE NOT EXISTS (SELECT 1 FROM operator_socket_leases WHERE tenant_id = $1 AND operator_id = $2 AND seen_at = 'infinity')`,
        [tenantID, operatorID],
      );
    }
  }

  async notification(tenantID: string, options: NotificationFixtureOptions): Promise<string> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO notifications (tenant_id, operator_id, category, inbox_id, session_id, read_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [tenantID, options.operatorID, options.category, options.inboxID ?? null, options.sessionID ?? null, options.read ? new Date() : null],
    );
    return rows[0].id;
  }
}
