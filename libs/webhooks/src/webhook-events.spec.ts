import { grantTenantScope } from '@platform/auth';
import { runTransaction, SqlRunner } from '@platform/database';
import { runWithRequestID } from '@platform/observability';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import type Redis from 'ioredis';
import { OutboxNudges } from './outbox-nudges';
import { WebhookEvents } from './webhook-events';
import { OutboxRepository } from '@platform/outbox';

const tenant = grantTenantScope('5D1E0F3A-8C2B-4D6E-9F10-112233445566');
const operatorID = '3b241101-e2bb-4255-8caf-4136c566a962';

/** A transaction's runner that keeps every statement it is given. */
function recordingRunner(): SqlRunner & { statements: { text: string; params: unknown[] }[] } {
  const statements: { text: string; params: unknown[] }[] = [];
  return {
    statements,
    query: async (text: string, params?: unknown[]) => {
      statements.push({ text, params: params ?? [] });
      return [];
    },
  };
}

/** Redis as the nudges see it: every PUBLISH kept, each answered when `answer` says. */
function recordingRedis() {
  const published: { channel: string; message: string }[] = [];
  const redis = {
    published,
    answer: async () => 0,
    publish(channel: string, message: string) {
      published.push({ channel, message });
      return redis.answer();
    },
  };
  return redis;
}

function emitter(redis = recordingRedis()): WebhookEvents {
  // Appending never touches the pool: the caller's transaction runs the statement.
  const nudges = new OutboxNudges(redis as unknown as Redis, 'realtime:v1:outbox-committed:test');
  return new WebhookEvents(new OutboxRepository(Object.create(DataSource.prototype) as DataSource), 'core-tenants', nudges);
}

/** A DataSource whose transactions run on `runner`: committed when the work resolves, rolled back when it throws. */
function dataSourceOn(runner: SqlRunner): DataSource {
  return { transaction: (work: (manager: SqlRunner) => Promise<unknown>) => work(runner) } as unknown as DataSource;
}

const message = { type: 'notifications.read' as const, subject: `operator:${operatorID}`, data: { operatorID, sessionID: operatorID, inboxID: operatorID, markedRead: 1 } };

describe('WebhookEvents', () => {
  it("appends an ordered event in the caller's transaction, keyed by its subject, with the catalog's version and the request id", async () => {
    const runner = recordingRunner();
    await runWithRequestID('req-7', () =>
      emitter().emit(runner, tenant, {
        type: 'member.removed',
        subject: `member:${operatorID}`,
        data: { operatorID, role: 'member' },
      }),
    );
    expect(runner.statements).toHaveLength(1);
    const [tenantID, type, version, orderingKey, data, emittedBy, headers] = runner.statements[0].params;
    expect(runner.statements[0].text).toMatch(/^INSERT INTO webhook_events/);
    expect({ tenantID, type, version, orderingKey, emittedBy }).toEqual({
      tenantID: '5d1e0f3a-8c2b-4d6e-9f10-112233445566',
      type: 'member.removed',
      version: 1,
      orderingKey: `member:${operatorID}`,
      emittedBy: 'core-tenants',
    });
    expect(JSON.parse(data as string)).toEqual({ operatorID, role: 'member' });
    expect(JSON.parse(headers as string)).toMatchObject({ 'x-request-id': 'req-7' });
  });

  it('leaves the ordering key off an event type that needs no order', async () => {
    const runner = recordingRunner();
    await emitter().emit(runner, tenant, {
      type: 'webhook.test',
      subject: 'webhookEndpoint:1',
      data: { webhookEndpointID: operatorID, message: 'A test event sent on request.' },
    });
    expect(runner.statements[0].params[3]).toBeNull();
  });

  describe('the real-time relay nudge', () => {
    it('is published once the transaction committed, once for a transaction of several conversation events', async () => {
      const redis = recordingRedis();
      const events = emitter(redis);
      const runner = recordingRunner();
      await runTransaction(dataSourceOn(runner), async (transaction) => {
        await events.emit(transaction, tenant, message);
        await events.emit(transaction, tenant, message);
        // Not before the commit: the relay would find nothing yet.
        expect(redis.published).toEqual([]);
      });
      expect(runner.statements).toHaveLength(2);
      expect(redis.published).toEqual([{ channel: 'realtime:v1:outbox-committed:test', message: '' }]);
    });

    it('is not published when the transaction rolls back', async () => {
      const redis = recordingRedis();
      const events = emitter(redis);
      const rolledBack = runTransaction(dataSourceOn(recordingRunner()), async (transaction) => {
        await events.emit(transaction, tenant, message);
        throw new Error('the change failed after its event');
      });
      await expect(rolledBack).rejects.toThrow('the change failed after its event');
      expect(redis.published).toEqual([]);
    });

    it('is not published for events that only webhooks receive', async () => {
      const redis = recordingRedis();
      await runTransaction(dataSourceOn(recordingRunner()), (transaction) =>
        emitter(redis).emit(transaction, tenant, { type: 'member.removed', subject: `member:${operatorID}`, data: { operatorID, role: 'member' } }),
      );
      expect(redis.published).toEqual([]);
    });

    it('never fails the committed change when Redis is away', async () => {
      const redis = recordingRedis();
      redis.answer = () => Promise.reject(new Error('Connection is closed.'));
      const answer = await runTransaction(dataSourceOn(recordingRunner()), async (transaction) => {
        await emitter(redis).emit(transaction, tenant, message);
        return 'committed';
      });
      expect(answer).toBe('committed');
      expect(redis.published).toHaveLength(1);
    });

    it('announces commits made while a publish is under way with one more publish after it', async () => {
      const redis = recordingRedis();
      const answers: (() => void)[] = [];
      redis.answer = () => new Promise<number>((resolve) => answers.push(() => resolve(1)));
      const events = emitter(redis);
      const commit = () => runTransaction(dataSourceOn(recordingRunner()), (transaction) => events.emit(transaction, tenant, message));
      await commit();
      await commit();
      await commit();
      expect(redis.published).toHaveLength(1);
      answers.shift()!();
      await expect.poll(() => redis.published.length).toBe(2);
      answers.shift()!();
      await commit();
      await expect.poll(() => redis.published.length).toBe(3);
    });
  });
});
