import { ChangeMemberRole } from '@platform/contracts';
import { createTestRedis, TestRedis } from '@platform/testing';
import { replyChannel, requestChannel, transportNamespaceOf } from '@platform/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import { packetOf } from '../support/transport-messages';
import { auditRecordsOf, roleOf, startTeamPlatform, TeamPlatform, teamApi } from './team-platform';

/**
 * Whoever can write the transport's Redis keys (docs/security.md, The
 * cluster): it captures a genuine signed request, deletes its claim and
 * publishes it again within its age limit. Exactly-once rests on
 * PostgreSQL, not on that claim (docs/transport.md, Exactly once).
 */
describe('a transport request replayed after its Redis claim was deleted', () => {
  let env: TeamPlatform;
  let namespace: string;
  let listener: TestRedis;
  let attacker: TestRedis;
  const captured: string[] = [];
  const replies: { id: string; err?: unknown }[] = [];

  beforeAll(async () => {
    env = await startTeamPlatform();
    namespace = transportNamespaceOf({ DATABASE_URL: env.platform.env.DATABASE_URL! });
    attacker = createTestRedis();
    listener = createTestRedis();
    await listener.subscribe(requestChannel(namespace, ChangeMemberRole.pattern), replyChannel(namespace, ChangeMemberRole.pattern));
    listener.on('message', (channel, message) => {
      if (channel === requestChannel(namespace, ChangeMemberRole.pattern)) captured.push(message);
      else replies.push(packetOf(message));
    });
  });
  afterAll(async () => {
    listener.disconnect();
    attacker.disconnect();
    await env.platform.close();
  });

  it('changes nothing the second time: the demoted member stays a member, and the audit log gains no entry', async () => {
    const api = teamApi(env.platform, env.tenantID, await env.bearer(env.owner));
    expect((await api.changeRole(env.member.operatorID, 'owner')).response.status).toBe(200);
    const promotion = await eventually(() => {
      expect(captured).toHaveLength(1);
      return captured[0];
    });
    const promotionID = packetOf<{ id: string }>(promotion).id;
    expect((await api.changeRole(env.member.operatorID, 'member')).response.status).toBe(200);
    const recorded = await auditRecordsOf(env.platform, env.tenantID, 'member.roleChanged');
    expect(recorded).toHaveLength(2);

    // Within the message's age limit: the claim gone, the very message published again.
    expect(await attacker.del(`transport:v1:claim:${namespace}:${promotionID}`)).toBe(1);
    await attacker.publish(requestChannel(namespace, ChangeMemberRole.pattern), promotion);

    // core-tenants took it (it answers), and refused it: nothing changed.
    await eventually(() => expect(replies.filter((reply) => reply.id === promotionID)).toHaveLength(2));
    expect(replies.filter((reply) => reply.id === promotionID)[1].err).toMatchObject({ error_code: 1004 });
    expect(await roleOf(env.platform, env.tenantID, env.member.operatorID)).toBe('member');
    expect(await auditRecordsOf(env.platform, env.tenantID, 'member.roleChanged')).toEqual(recorded);
    const members = await teamApi(env.platform, env.tenantID, await env.bearer(env.member)).changeRole(env.owner.operatorID, 'member');
    expect(members.response.status).toBe(403);
  });
});
