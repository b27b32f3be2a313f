import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@platform/auth';
import { ConversationMessageDto, DeliveryStatus, messageStatusCodeOf } from '@platform/conversations';
import { firstRow, rows, sql, SqlRunner, TransactionalRepository } from '@platform/database';
import { exactTimeSql } from '../../exact-time-position';

interface MessageRow {
  id: string;
  session_id: string;
  inbox_id: string | null;
  direction: string;
  key: string;
  status: number;
  delivery_status: DeliveryStatus | null;
  value: unknown;
  channel_message_id: string | null;
  operator_id: string | null;
  created_at: Date;
  updated_at: Date;
  /** `created_at` to the microsecond: the keyset of the messages page (a Date keeps milliseconds). */
  created_at_exact: string;
}

const MESSAGE_COLUMNS = `id, session_id, inbox_id, direction, key, status, delivery_status, value, channel_message_id, operator_id, created_at, updated_at,
                 ${exactTimeSql('created_at')} AS created_at_exact`;

/** A message and the place it sits in its session's page. */
export interface StoredMessage {
  message: ConversationMessageDto;
  /** The message's keyset position: its exact time and id. */
  position: { createdAt: string; messageID: string };
}

function storedMessage(row: MessageRow): StoredMessage {
  return {
    message: {
      messageID: row.id,
      sessionID: row.session_id,
      inboxID: row.inbox_id,
      messageDirection: row.direction,
      messageKey: row.key,
      messageStatus: row.status,
      deliveryStatus: row.delivery_status,
      messageValue: row.value,
      channelMessageID: row.channel_message_id,
      operatorID: row.operator_id,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    },
    position: { createdAt: row.created_at_exact, messageID: row.id },
  };
}

/** A statement that reads whole messages: its rows come back as stored messages. */
export interface MessagesStatement<Params extends readonly unknown[]> {
  run(runner: SqlRunner, parameters: Params): Promise<StoredMessage[]>;
}

/**
 * A statement of another module's that reads messages (a search), with the
 * columns and the row mapping of this one: `text` gets the column list,
 * unqualified, so its statement reads `messages` without a join.
 */
export function messagesStatement<Params extends readonly unknown[]>(text: (columns: string) => string): MessagesStatement<Params> {
  const statement = sql<MessageRow, Params>(text(MESSAGE_COLUMNS));
  return { run: async (runner, parameters) => (await rows(runner, statement, parameters)).map(storedMessage) };
}

/**
 * An inbound message, unless the inbox already has this channel message id:
 * then no row (messages_channel_message_key), however many posts race.
 * Its time is the clock at the insert, taken under the session's lock, so a
 * session's messages are timed in the order they were stored.
 */
const INSERT_INBOUND = sql<MessageRow, [tenantID: string, sessionID: string, inboxID: string, value: string, channelMessageID: string]>(
  `INSERT INTO messages (tenant_id, session_id, inbox_id, direction, key, status, value, channel_message_id, created_at, updated_at)
   VALUES ($1, $2, $3, 'inbound', 'text', 0, $4::jsonb, $5, clock_timestamp(), clock_timestamp())
   ON CONFLICT (tenant_id, inbox_id, channel_message_id) WHERE channel_message_id IS NOT NULL DO NOTHING
   RETURNING ${MESSAGE_COLUMNS}`,
);

const BY_CHANNEL_MESSAGE_ID = sql<MessageRow, [tenantID: string, inboxID: string, channelMessageID: string]>(
  `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE tenant_id = $1 AND inbox_id = $2 AND channel_message_id = $3`,
);

const INSERT_OUTBOUND = sql<MessageRow, [tenantID: string, sessionID: string, inboxID: string, value: string, operatorID: string]>(
  `INSERT INTO messages (tenant_id, session_id, inbox_id, direction, key, status, delivery_status, value, operator_id, created_at, updated_at)
   VALUES ($1, $2, $3, 'outbound', 'text', 0, 'pending', $4::jsonb, $5, clock_timestamp(), clock_timestamp())
   RETURNING ${MESSAGE_COLUMNS}`,
);

const BY_ID = sql<MessageRow, [tenantID: string, messageID: string]>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE tenant_id = $1 AND id = $2`);

const SET_STATUS = sql<MessageRow, [tenantID: string, messageID: string, deliveryStatus: string, status: number]>(
  `UPDATE messages SET delivery_status = $3, status = $4, updated_at = clock_timestamp() WHERE tenant_id = $1 AND id = $2 RETURNING ${MESSAGE_COLUMNS}`,
);

/**
 * A page of a session's messages, newest first, after a keyset position
 * (exclusive): a backward walk of messages_session_order_idx from that
 * position, so page 1,000 costs what page 1 does. One row more than the
 * page tells whether another follows.
 */
const PAGE = sql<MessageRow, [tenantID: string, sessionID: string, beforeAt: string | null, beforeID: string | null, limit: number]>(
  `SELECT ${MESSAGE_COLUMNS} FROM messages
    WHERE session_id = $2 AND tenant_id = $1
      AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
    ORDER BY created_at DESC, id DESC
    LIMIT $5`,
);

/** Messages: inbound (idempotent on the channel's id), outbound with a delivery status, and a session's pages. */
@Injectable()
export class MessagesRepository extends TransactionalRepository {
  /** The stored message, or undefined when the inbox already has this channel message id. */
  async insertInbound(runner: SqlRunner, scope: TenantScope, message: { sessionID: string; inboxID: string; content: string; channelMessageID: string }): Promise<StoredMessage | undefined> {
    const row = await firstRow(runner, INSERT_INBOUND, [scope.tenantID, message.sessionID, message.inboxID, JSON.stringify(message.content), message.channelMessageID]);
    return row && storedMessage(row);
  }

  async byChannelMessageID(scope: TenantScope, inboxID: string, channelMessageID: string, runner: SqlRunner = this.dataSource): Promise<StoredMessage | undefined> {
    const row = await firstRow(runner, BY_CHANNEL_MESSAGE_ID, [scope.tenantID, inboxID, channelMessageID]);
    return row && storedMessage(row);
  }

  async insertOutbound(runner: SqlRunner, scope: TenantScope, message: { sessionID: string; inboxID: string; content: string; operatorID: string }): Promise<StoredMessage> {
    const row = await firstRow(runner, INSERT_OUTBOUND, [scope.tenantID, message.sessionID, message.inboxID, JSON.stringify(message.content), message.operatorID]);
    return storedMessage(row!);
  }

  async byID(scope: TenantScope, messageID: string, runner: SqlRunner = this.dataSource): Promise<StoredMessage | undefined> {
    const row = await firstRow(runner, BY_ID, [scope.tenantID, messageID]);
    return row && storedMessage(row);
  }

  async setDeliveryStatus(runner: SqlRunner, scope: TenantScope, messageID: string, deliveryStatus: DeliveryStatus): Promise<StoredMessage> {
    const row = await firstRow(runner, SET_STATUS, [scope.tenantID, messageID, deliveryStatus, messageStatusCodeOf(deliveryStatus)]);
    return storedMessage(row!);
  }

  async page(scope: TenantScope, sessionID: string, before: { createdAt: string; messageID: string } | undefined, limit: number): Promise<StoredMessage[]> {
    const found = await rows(this.dataSource, PAGE, [scope.tenantID, sessionID, before?.createdAt ?? null, before?.messageID ?? null, limit]);
    return found.map(storedMessage);
  }
}
