import { Clock } from '@platform/scheduling';
import { singleError, startSmtpStub, SmtpStub } from '@platform/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../support/eventually';
import { describeStandardRefusals } from '../support/standard-refusals';
import { ConversationPlatform, createInbox, Operator, startConversationPlatform } from './conversation-platform';

const INTERVAL_SECONDS = 300;
const TENANT_NAME = 'Acme <Suporte> & Cia';

interface Member extends Operator {
  email: string;
}

/**
 * Notification mails (docs/notifications.md) through services-api, a real
 * SMTP server on loopback and a movable clock: an operator offline or away
 * when a session is assigned to them, or when its contact writes, gets one
 * mail per interval listing what they have not read by the send, as their
 * preferences say. Never waits for the interval: the test moves the clock.
 */
describe('notification mails', () => {
  let context: ConversationPlatform;
  let smtp: SmtpStub;
  let inboxID: string;
  let offset = 0;
  let handles = 0;
  const api = () => context.platform.api.services;
  /** Moves services-api's clock past the interval of every batch open so far (and every retry's delay). */
  const passTheInterval = () => {
    offset += (INTERVAL_SECONDS + 3_600) * 1000;
  };

  beforeAll(async () => {
    smtp = await startSmtpStub();
    context = await startConversationPlatform({
      SMTP_URL: smtp.url,
      SMTP_TIMEOUT_MS: '10000',
      NOTIFICATION_MAIL_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
      NOTIFICATION_MAIL_POLL_MS: '100',
      EMAIL_RETRY_DELAY_SECONDS: '1',
      MESSAGE_CONTENT_MAX_CHARACTERS: '1000',
    });
    vi.spyOn(context.platform.apps['services-api']!.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + offset));
    await context.platform.dataSource.query(`UPDATE tenants SET name = $2 WHERE id = $1`, [context.tenantID, TENANT_NAME]);
    inboxID = await createInbox(context, 'WhatsApp');
  });
  // A batch opens at the database's time and falls due by services-api's clock: each test starts with the two
  // together, so nothing it records is due before it moves the clock.
  afterEach(() => {
    offset = 0;
  });
  afterAll(async () => {
    await context?.close();
    await smtp?.close();
  });

  /**
   * A new member of the tenant, offline (no presence row) unless given a
   * status. One given a status other than offline chose it and holds a socket
   * lease that stays live and active for the whole test, so the presence
   * reconciler (docs/presence.md) keeps that status in effect.
   */
  const member = async (status?: 'online' | 'busy' | 'away' | 'offline'): Promise<Member> => {
    const { fixtures, dataSource } = context.platform;
    const { operatorID, email } = await fixtures.operator({ firstname: 'Bia' });
    await fixtures.membership(context.tenantID, operatorID, 'member');
    if (status === 'offline') {
      await dataSource.query(`INSERT INTO operator_presence (tenant_id, operator_id, chosen_status, status) VALUES ($1, $2, 'offline', 'offline')`, [context.tenantID, operatorID]);
    } else if (status) {
      // The lease and the status in one statement: a reconciler pass between the two would find a status
      // without a live socket and move the operator offline until its next pass.
      await dataSource.query(
        `WITH lease AS (
           INSERT INTO operator_socket_leases (socket_id, tenant_id, operator_id, seen_at, last_activity_at) VALUES (gen_random_uuid(), $1, $2, 'infinity', 'infinity')
         )
         INSERT INTO operator_presence (tenant_id, operator_id, chosen_status, status) VALUES ($1, $2, $3, $3)`,
        [context.tenantID, operatorID, status],
      );
    }
    return { operatorID, email, authorization: `Bearer ${await context.platform.tokenFor(operatorID)}` };
  };
  /** A contact writes for the first time: a queued session; answers it and the contact's handle. */
  const contactWrites = async (content: string, handle = `+55119${String(++handles).padStart(8, '0')}`, contactName = `Maria ${handles}`) => {
    const posted = await api().POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: context.tenantID, inboxID } },
      headers: { authorization: context.channel.authorization },
      body: { contactHandle: handle, contactName, channelMessageID: `wamid.${handle}.${Math.random()}`, content },
    });
    expect(posted.response.status).toBeLessThan(300);
    return { sessionID: posted.data!.data.session.sessionID, handle, contactName };
  };
  const assign = async (sessionID: string, to: Operator) => {
    const assigned = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/assign', {
      params: { path: { tenantID: context.tenantID, sessionID } },
      headers: { authorization: context.owner.authorization },
      body: { operatorID: to.operatorID },
    });
    expect(assigned.response.status).toBe(200);
  };
  const mailsTo = (who: Member) => smtp.mails.filter((mail) => mail.envelopeTo.includes(who.email.toLowerCase()));
  /** Nothing is left to mail the operator: their batch is closed. */
  const settled = (who: Operator) =>
    eventually(async () => {
      const open = await context.platform.dataSource.query(`SELECT 1 FROM notification_mail_batches WHERE operator_id = $1`, [who.operatorID]);
      expect(open).toEqual([]);
    });
  /** Another offline operator assigned a session now: their mail, once it arrives, shows the worker has been through the earlier events. */
  const witness = async () => {
    const someone = await member();
    await assign((await contactWrites('Oi')).sessionID, someone);
    return someone;
  };

  it('mails an offline operator once the interval passed when a session is assigned to them', async () => {
    const bia = await member();
    const { sessionID, contactName } = await contactWrites('Olá, meu pedido não chegou.');
    await assign(sessionID, bia);
    passTheInterval();

    const mail = await smtp.nextMailTo(bia.email);
    expect(mail.subject).toBe(`${TENANT_NAME}: 1 novidade no atendimento`);
    expect(mail.text).toContain(`na equipe ${TENANT_NAME}`);
    expect(mail.text).toContain(`O atendimento de ${contactName} foi atribuído a você.`);
    // Only what was assigned: the message before the assignment is not quoted.
    expect(mail.text).not.toContain('pedido');
    expect(mail.html).toContain('Acme &lt;Suporte&gt; &amp; Cia');
    expect(mail.html).not.toContain(TENANT_NAME);
    await settled(bia);
    expect(mailsTo(bia)).toHaveLength(1);
  });

  it('gathers an assignment and what the contact wrote within one interval into one mail, quoting only the start of a long message', async () => {
    const away = await member('away');
    const { sessionID, handle, contactName } = await contactWrites('Oi');
    await assign(sessionID, away);
    const long = `<b>Preciso</b> ${'de ajuda '.repeat(3)}${'e mais '.repeat(3)}`;
    await contactWrites(long, handle, contactName);
    passTheInterval();

    const mail = await smtp.nextMailTo(away.email);
    expect(mail.subject).toBe(`${TENANT_NAME}: 2 novidades no atendimento`);
    expect(mail.text).toContain(`O atendimento de ${contactName} foi atribuído a você.`);
    expect(mail.text).toContain(`${contactName} escreveu: “<b>Preciso</b> de ajuda`);
    expect(mail.html).toContain('&lt;b&gt;Preciso&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Preciso');
    await settled(away);
    expect(mailsTo(away)).toHaveLength(1);
  });

  it('quotes at most a short excerpt of a message', async () => {
    const bia = await member();
    const { sessionID, handle, contactName } = await contactWrites('Oi');
    await assign(sessionID, bia);
    await contactWrites(`${'a'.repeat(45)}\n\n${'b'.repeat(300)} FIM-DA-MENSAGEM`, handle, contactName);
    passTheInterval();
    const mail = await smtp.nextMailTo(bia.email);
    const quoted = mail.text.split('\n').find((line) => line.includes('escreveu'))!;
    // One line, the start only: at most 80 characters of the message, the rest cut.
    expect(quoted).toMatch(new RegExp(`escreveu: “a{45} b+…”$`));
    expect(quoted.slice(quoted.indexOf('“') + 1, -1).length).toBeLessThanOrEqual(80);
    expect(mail.text).not.toContain('FIM-DA-MENSAGEM');
    expect(mail.html).not.toContain('FIM-DA-MENSAGEM');
  });

  it.each(['online', 'busy'] as const)('sends nothing to an operator who was %s when the session was assigned', async (status) => {
    const present = await member(status);
    await assign((await contactWrites('Oi')).sessionID, present);
    const someone = await witness();
    passTheInterval();
    await smtp.nextMailTo(someone.email);
    await settled(present);
    expect(mailsTo(present)).toEqual([]);
  });

  it('sends nothing of a kind the operator turned off, and still the kinds they kept', async () => {
    const bia = await member();
    const set = await api().PUT('/v1/tenants/{tenantID}/notification-preferences/me', {
      params: { path: { tenantID: context.tenantID } },
      headers: { authorization: bia.authorization },
      body: { email: { assigned: false, contactWrote: true } },
    });
    expect(set.response.status).toBe(200);
    const { sessionID, handle, contactName } = await contactWrites('Oi');
    await assign(sessionID, bia);
    const someone = await witness();
    passTheInterval();
    await smtp.nextMailTo(someone.email);
    await settled(bia);
    expect(mailsTo(bia)).toEqual([]);

    await contactWrites('Vocês abrem amanhã?', handle, contactName);
    passTheInterval();
    const mail = await smtp.nextMailTo(bia.email);
    expect(mail.text).toContain(`${contactName} escreveu: “Vocês abrem amanhã?”`);
    expect(mail.text).not.toContain('foi atribuído');
  });

  it('sends nothing for a session the operator read before the mail went out', async () => {
    const bia = await member();
    const { sessionID } = await contactWrites('Oi');
    await assign(sessionID, bia);
    const read = await api().POST('/v1/tenants/{tenantID}/sessions/{sessionID}/read', {
      params: { path: { tenantID: context.tenantID, sessionID } },
      headers: { authorization: bia.authorization },
    });
    expect(read.response.status).toBe(200);
    const someone = await witness();
    passTheInterval();
    await smtp.nextMailTo(someone.email);
    await settled(bia);
    expect(mailsTo(bia)).toEqual([]);
  });

  it('keeps the events while SMTP refuses, and mails them once it accepts again', async () => {
    const bia = await member();
    const { sessionID, contactName } = await contactWrites('Oi');
    await assign(sessionID, bia);
    const refusedBefore = smtp.refusals;
    smtp.refuseWith = { code: 451, message: 'Try again later' };
    try {
      passTheInterval();
      // Bia's own mail was refused: her batch counts the failure and keeps her item.
      await eventually(async () => {
        const [batch] = await context.platform.dataSource.query(`SELECT failures FROM notification_mail_batches WHERE operator_id = $1`, [bia.operatorID]);
        expect(batch?.failures).toBeGreaterThan(0);
      });
      expect(smtp.refusals).toBeGreaterThan(refusedBefore);
    } finally {
      smtp.refuseWith = undefined;
    }
    expect(mailsTo(bia)).toEqual([]);
    passTheInterval();
    const mail = await smtp.nextMailTo(bia.email);
    expect(mail.text).toContain(`O atendimento de ${contactName} foi atribuído a você.`);
    await settled(bia);
    expect(mailsTo(bia)).toHaveLength(1);
  });

  describe('GET and PUT /v1/tenants/:tenantID/notification-preferences/me', () => {
    const read = (who: Operator, tenantID = context.tenantID) =>
      api().GET('/v1/tenants/{tenantID}/notification-preferences/me', { params: { path: { tenantID } }, headers: { authorization: who.authorization } });
    const write = (who: Operator, body: unknown, tenantID = context.tenantID) =>
      api().PUT('/v1/tenants/{tenantID}/notification-preferences/me', {
        params: { path: { tenantID } },
        headers: { authorization: who.authorization },
        body: body as never,
      });

    it('answers both kinds on until the operator chooses, then their choice, in that tenant only', async () => {
      const bia = await member();
      await context.platform.fixtures.membership(context.otherTenantID, bia.operatorID, 'member');
      expect((await read(bia)).data).toEqual({ data: { email: { assigned: true, contactWrote: true } } });
      const written = await write(bia, { email: { assigned: false, contactWrote: true } });
      expect(written.response.status).toBe(200);
      expect(written.data).toEqual({ data: { email: { assigned: false, contactWrote: true } } });
      expect((await read(bia)).data).toEqual({ data: { email: { assigned: false, contactWrote: true } } });
      expect((await read(bia, context.otherTenantID)).data).toEqual({ data: { email: { assigned: true, contactWrote: true } } });
      // Another member's preferences are their own: theirs do not move.
      expect((await read(context.member)).data).toEqual({ data: { email: { assigned: true, contactWrote: true } } });
    });

    it.each([
      ['no email', {}, [{ field: 'email', received: 'undefined', allowed: 'required' }]],
      ['email not an object', { email: 'yes' }, [{ field: 'email', received: 'yes', allowed: 'object' }]],
      ['email an array', { email: [] }, [{ field: 'email', received: '[]', allowed: 'object' }]],
      ['a kind missing', { email: { assigned: true } }, [{ field: 'email.contactWrote', received: 'undefined', allowed: 'boolean' }]],
      ['a kind not a boolean', { email: { assigned: 'true', contactWrote: 1 } }, [
        { field: 'email.assigned', received: 'true', allowed: 'boolean' },
        { field: 'email.contactWrote', received: '1', allowed: 'boolean' },
      ]],
      ['an unknown kind', { email: { assigned: true, contactWrote: true, mentioned: true } }, [{ field: 'email.mentioned', received: 'true', allowed: 'no such field' }]],
      ['an unknown field', { email: { assigned: true, contactWrote: true }, sms: {} }, [{ field: 'sms', received: '{}', allowed: 'no such field' }]],
    ])('refuses a body with %s: 400 1002 with its fields, and keeps the preferences', async (_name, body, fields) => {
      const bia = await member();
      await write(bia, { email: { assigned: false, contactWrote: false } });
      const refused = await write(bia, body);
      expect(refused.response.status).toBe(400);
      expect(singleError(refused.error)).toMatchObject({ error_code: 1002 });
      expect(singleError(refused.error).fields).toEqual(fields.map((field) => expect.objectContaining(field)));
      expect((await read(bia)).data).toEqual({ data: { email: { assigned: false, contactWrote: false } } });
    });

    const preferenceRows = () => context.platform.dataSource.query(`SELECT tenant_id, operator_id, assigned, contact_wrote FROM notification_mail_preferences ORDER BY 1, 2, 3, 4`);
    for (const method of ['GET', 'PUT'] as const) {
      describeStandardRefusals({
        method,
        path: '/v1/tenants/{tenantID}/notification-preferences/me',
        client: () => context.platform.api.services,
        tenantID: () => context.tenantID,
        body: method === 'PUT' ? () => ({ email: { assigned: false, contactWrote: false } }) : undefined,
        valid: () => context.member.authorization,
        // An operator of another tenant only reads and writes nobody's preferences here.
        outsider: () => context.otherOwner.authorization,
        invalid: async () => [context.channel.authorization],
        written: preferenceRows,
      });
    }
  });
});
