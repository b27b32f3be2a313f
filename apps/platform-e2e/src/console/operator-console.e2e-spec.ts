import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, WAIT_LIMIT_MS } from '../support/eventually';
import { TestSocket } from '../realtime/realtime-client';
import { ConsolePlatform, ConsoleTenant, openConsole, screenshot, signIn, startConsolePlatform } from './console-platform';

/** Waits in the page as long as a test may (a busy machine is slow, not wrong). */
const WAIT = { timeout: WAIT_LIMIT_MS };

/**
 * The operator console in headless Chromium, in front of the real apps
 * (docs/console.md): what a channel posts reaches the queue live, the
 * operator takes the session and replies and the channel's connection
 * receives the reply; the page outlives the gateway replica it was on and
 * shows every message once; another tenant's operator sees nothing of it.
 */
describe('the operator console, in a browser', () => {
  let context: ConsolePlatform;

  beforeAll(async () => {
    context = await startConsolePlatform();
  }, 180_000);

  afterAll(async () => {
    await context?.close();
  });

  /** The channel posts what a contact wrote. */
  const postInbound = async (tenant: ConsoleTenant, contactHandle: string, content: string) => {
    const posted = await context.platform.api.services.POST('/v1/tenants/{tenantID}/inboxes/{inboxID}/messages', {
      params: { path: { tenantID: tenant.tenantID, inboxID: tenant.inboxID } },
      headers: { authorization: tenant.channel.authorization },
      body: { contactHandle, channelMessageID: randomUUID(), content },
    });
    expect(posted.response.status).toBe(201);
    return posted.data!.data.session.sessionID;
  };
  const live = (page: Page) => page.locator('[data-connection="live"]').waitFor(WAIT);
  const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation' });
  const textsOf = async (page: Page) => (await conversation(page).locator('.text').allTextContents()).map((text) => text.trim());

  /** What has the focus, as a screen reader would name it: its label, its own label, or its text. */
  const focused = (page: Page): Promise<string> =>
    page.evaluate(`(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return '';
      const label = element.labels && element.labels[0] ? element.labels[0].textContent : '';
      return (label || element.getAttribute('aria-label') || element.textContent || '').trim();
    })()`);
  /** Presses Tab until the control named `name` has the focus (as a keyboard user would), failing if it never does. */
  const tabTo = async (page: Page, name: string | RegExp) => {
    const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
    const seen: string[] = [];
    for (let presses = 0; presses < 60; presses += 1) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      if (matches(now)) return;
      seen.push(now);
    }
    throw new Error(`Tab never reached ${String(name)}; it went through: ${seen.join(' | ')}`);
  };
  /** axe-core's WCAG 2.1 A and AA rules on the page as it stands; the page's CSP is not relaxed for it. */
  const accessibilityViolations = async (page: Page) => {
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const results = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })`)) as {
      violations: { id: string; nodes: { target: string[] }[] }[];
    };
    return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  };

  it("shows a channel's message live in the queue; the operator takes the session and replies, and the channel's socket receives the reply; another tenant's operator sees none of it", async () => {
    const { tenant, otherTenant } = context;
    const channel = await TestSocket.connect(context.replicas[1].url, { headers: { authorization: tenant.channel.authorization } });
    expect((await channel.start({ type: 'subscribe' })).type).toBe('subscribed');

    const operator = await openConsole(context);
    await signIn(operator.page, tenant.member, tenant.tenantName);
    const outsider = await openConsole(context);
    await signIn(outsider.page, otherTenant.owner, otherTenant.tenantName);
    await Promise.all([live(operator.page), live(outsider.page)]);
    const queued = operator.page.getByRole('list', { name: 'Queued sessions' });
    await operator.page.getByText('No session in this queue').waitFor(WAIT);

    // The contact writes; the session appears in the queue without a reload.
    await postInbound(tenant, '+5511987650001', 'Olá, meu pedido não chegou.');
    await queued.getByText('Olá, meu pedido não chegou.').click(WAIT);
    await conversation(operator.page).getByText('Olá, meu pedido não chegou.').waitFor(WAIT);

    // A member may not assign a session (owners do): the page shows the API's own words, and nothing changes.
    await operator.page.getByLabel('Assign to').selectOption({ index: 1 });
    await operator.page.getByRole('button', { name: 'Assign', exact: true }).click();
    await operator.page.getByRole('alert').getByText('You do not have access to this resource.').waitFor(WAIT);
    await operator.page.getByTestId('session-state').getByText('Queued').waitFor(WAIT);

    await operator.page.getByRole('button', { name: 'Take' }).click();
    await operator.page.getByTestId('session-state').getByText('Assigned to you').waitFor(WAIT);
    await operator.page.getByLabel('Reply').fill('Vou verificar agora mesmo.');
    await operator.page.getByRole('button', { name: 'Send' }).click();
    await conversation(operator.page).getByText('Vou verificar agora mesmo.').waitFor(WAIT);
    expect(await textsOf(operator.page)).toEqual(['Olá, meu pedido não chegou.', 'Vou verificar agora mesmo.']);
    await screenshot(operator.page, 'session');

    // The channel's connection receives the reply to deliver.
    await eventually(() => {
      const replies = channel
        .ofType('event')
        .map((frame) => frame.event as { type: string; data: { message?: { messageDirection: string; messageValue: unknown } } })
        .filter((event) => event.type === 'message.created' && event.data.message?.messageDirection === 'outbound');
      expect(replies.map((event) => event.data.message?.messageValue)).toEqual(['Vou verificar agora mesmo.']);
    });

    // The other tenant's operator: their own tenant's message reaches them (a barrier), nothing of the first.
    await postInbound(otherTenant, '+5511987650002', 'Mensagem da outra empresa');
    await outsider.page.getByRole('list', { name: 'Queued sessions' }).getByText('Mensagem da outra empresa').waitFor(WAIT);
    const seenByOutsider = await outsider.page.locator('body').innerText();
    expect(seenByOutsider).not.toContain('meu pedido');
    expect(seenByOutsider).not.toContain('Vou verificar');
    await outsider.page.getByLabel('Search for').fill('pedido');
    await outsider.page.getByRole('button', { name: 'Search', exact: true }).click();
    await outsider.page.getByText('Nothing found for “pedido”.').waitFor(WAIT);

    // The operator says they are busy: the API records their choice.
    await operator.page.getByLabel('Presence').selectOption('busy');
    await eventually(async () => {
      const presence = await context.platform.api.services.GET('/v1/tenants/{tenantID}/presence/me', {
        params: { path: { tenantID: tenant.tenantID } },
        headers: { authorization: tenant.member.authorization },
      });
      expect(presence.data!.data.chosenStatus).toBe('busy');
    });
    expect(await operator.page.getByLabel('Presence').inputValue()).toBe('busy');

    // The token lives in the page's memory only.
    expect(await operator.page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([0, 0, '']);
    expect([...operator.pageErrors, ...outsider.pageErrors]).toEqual([]);
    channel.close();
    await operator.browserContext.close();
    await outsider.browserContext.close();
  });

  it('recovers by itself when the gateway replica the page is connected to stops, and shows every message once', async () => {
    const { tenant } = context;
    const operator = await openConsole(context);
    await signIn(operator.page, tenant.owner, tenant.tenantName);
    await live(operator.page);
    await postInbound(tenant, '+5511987650003', 'Primeira mensagem');
    await operator.page.getByRole('list', { name: 'Queued sessions' }).getByText('Primeira mensagem').click(WAIT);
    await conversation(operator.page).getByText('Primeira mensagem').waitFor(WAIT);

    // Every replica out of reach for a while: the one the page is on stops, the balancer sends nowhere.
    context.balancer.hold();
    const [connected] = context.replicas;
    await connected.close();
    await operator.page.getByText('Connection lost').waitFor({ state: 'visible', ...WAIT });
    await screenshot(operator.page, 'connection-lost');

    // The contact writes on while the page is away.
    await postInbound(tenant, '+5511987650003', 'Segunda mensagem');
    await postInbound(tenant, '+5511987650003', 'Terceira mensagem');

    // The other replica is reachable again: the page resumes there without a reload.
    context.balancer.release();
    await conversation(operator.page).getByText('Terceira mensagem').waitFor(WAIT);
    await operator.page.getByText('Connection lost').waitFor({ state: 'hidden', ...WAIT });
    await live(operator.page);
    expect(await textsOf(operator.page)).toEqual(['Primeira mensagem', 'Segunda mensagem', 'Terceira mensagem']);
    expect(operator.pageErrors).toEqual([]);
    await operator.browserContext.close();
  });

  /** Signs in and opens the tenant with the keyboard alone, checking each view with axe-core on the way. */
  const signInByKeyboard = async (page: Page, tenant: ConsoleTenant) => {
    const wide = (page.viewportSize()?.width ?? 0) >= 720;
    if (wide) await screenshot(page, 'sign-in');
    expect(await accessibilityViolations(page)).toEqual([]);
    await tabTo(page, 'Email');
    await page.keyboard.type(tenant.member.email);
    await tabTo(page, 'Password');
    await page.keyboard.type(tenant.member.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Choose a tenant' }).waitFor(WAIT);
    expect(await accessibilityViolations(page)).toEqual([]);
    if (wide) await screenshot(page, 'tenants');
    await tabTo(page, new RegExp(tenant.tenantName));
    await page.keyboard.press('Enter');
    await live(page);
  };

  it('can be used from the keyboard alone: sign in, open a session, take it, reply and close it; axe-core passes every view', async () => {
    const { tenant } = context;
    const sessionID = await postInbound(tenant, '+5511987650004', 'Preciso de ajuda com a fatura');
    const operator = await openConsole(context);
    const { page } = operator;
    await signInByKeyboard(page, tenant);
    await page.getByRole('list', { name: 'Queued sessions' }).getByText('Preciso de ajuda com a fatura').waitFor(WAIT);
    await screenshot(page, 'queues');
    await tabTo(page, /^Preciso de ajuda com a fatura/);
    await page.keyboard.press('Enter');
    await conversation(page).getByText('Preciso de ajuda com a fatura').waitFor(WAIT);
    expect(await accessibilityViolations(page)).toEqual([]);
    await tabTo(page, 'Take');
    await page.keyboard.press('Enter');
    await page.getByTestId('session-state').getByText('Assigned to you').waitFor(WAIT);
    expect(await accessibilityViolations(page)).toEqual([]);
    await tabTo(page, 'Reply');
    await page.keyboard.type('Claro, qual é o número da fatura?');
    await page.keyboard.press('Control+Enter');
    await conversation(page).getByText('Claro, qual é o número da fatura?').waitFor(WAIT);
    await tabTo(page, 'Close');
    await page.keyboard.press('Enter');
    await page.getByTestId('session-state').getByText('Closed').waitFor(WAIT);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(operator.pageErrors).toEqual([]);
    await operator.browserContext.close();

    const closed = await context.platform.api.services.GET('/v1/tenants/{tenantID}/sessions/{sessionID}', {
      params: { path: { tenantID: tenant.tenantID, sessionID } },
      headers: { authorization: tenant.member.authorization },
    });
    expect(closed.data!.data).toMatchObject({ sessionState: 'closed', operatorID: tenant.member.operatorID });
  });

  it('works on a narrow screen: the queues, or the open session with a way back, one at a time', async () => {
    const { tenant } = context;
    await postInbound(tenant, '+5511987650005', 'Mensagem no celular');
    const operator = await openConsole(context, { width: 390, height: 844 });
    const { page } = operator;
    await signInByKeyboard(page, tenant);
    await tabTo(page, /^Mensagem no celular/);
    await page.keyboard.press('Enter');
    await conversation(page).getByText('Mensagem no celular').waitFor(WAIT);
    await page.getByRole('heading', { name: 'Queues' }).waitFor({ state: 'hidden', ...WAIT });
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'narrow-session');
    await tabTo(page, 'Back to the queues');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Queues' }).waitFor(WAIT);
    await screenshot(page, 'narrow-queues');
    await page.getByRole('log', { name: 'Conversation' }).waitFor({ state: 'detached', ...WAIT });
    expect(operator.pageErrors).toEqual([]);
    await operator.browserContext.close();
  });
});
