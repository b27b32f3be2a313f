import { trustedTenantScope } from '@platform/auth';
import { ConversationFixtures, createTestDataSource, FixtureBuilder } from '@platform/testing';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShortcutsRepository } from './shortcuts.repository';

/**
 * Operation 7's SQL against PostgreSQL: the trigger-kept counts, the page
 * laid over the personal and company-wide ranges (forwards and backwards),
 * the search, the row mapping, and that nothing of another operator's
 * personal shortcuts or another tenant's crosses over.
 */
describe('ShortcutsRepository', () => {
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let shortcuts: ShortcutsRepository;
  let tenantID: string;
  let otherTenantID: string;
  let operatorID: string;
  let colleagueID: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ dataSource, close } = await createTestDataSource(2));
    shortcuts = new ShortcutsRepository(dataSource);
    const fixtures = new FixtureBuilder(dataSource);
    const conversations = new ConversationFixtures(dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    operatorID = (await fixtures.operator()).operatorID;
    colleagueID = (await fixtures.operator()).operatorID;
    const add = async (tenant: string, scope: 'user-based' | 'tenant-based', owner: string, bang: string) => {
      ids[`${tenant === tenantID ? '' : 'other:'}${bang}`] = await conversations.shortcut(tenant, { scope, operatorID: owner, bang, preview: `${bang} preview` });
    };
    await add(tenantID, 'user-based', operatorID, 'zeta');
    await add(tenantID, 'user-based', operatorID, 'Ápple');
    await add(tenantID, 'user-based', colleagueID, 'yours');
    await add(tenantID, 'tenant-based', colleagueID, 'beta');
    await add(tenantID, 'tenant-based', operatorID, 'alpha');
    await add(otherTenantID, 'tenant-based', operatorID, 'alpha-b');
  });
  afterAll(() => close?.());

  const scope = () => trustedTenantScope(tenantID);
  const bangs = (found: { shortcutBang: string }[]) => found.map((shortcut) => shortcut.shortcutBang);

  it("counts the operator's personal shortcuts and the tenant's company-wide ones", async () => {
    expect(await shortcuts.countVisible(scope(), operatorID)).toEqual({ personal: 2, company: 2 });
    expect(await shortcuts.countVisible(trustedTenantScope(otherTenantID), operatorID)).toEqual({ personal: 0, company: 1 });
  });

  it('lists personal before company-wide, each by bang ignoring case and accents, as camelCase shortcuts', async () => {
    const page = await shortcuts.page(scope(), operatorID, { offset: 0, limit: 10 }, { offset: 0, limit: 10 });
    expect(bangs(page)).toEqual(['Ápple', 'zeta', 'alpha', 'beta']);
    expect(page[0]).toEqual({
      shortcutID: ids['Ápple'],
      tenantID,
      organizationID: tenantID,
      operatorID,
      shortcutBang: 'Ápple',
      shortcutPreview: 'Ápple preview',
      shortcutScope: 'user-based',
      shortcutContents: [{ contentID: expect.any(String), contentKey: 'text', contentValue: 'Ápple preview' }],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('reads a slice backwards from the end of its range and still answers it in list order', async () => {
    const page = await shortcuts.page(scope(), operatorID, { offset: 0, limit: 1, backward: true }, { offset: 0, limit: 2, backward: true });
    expect(bangs(page)).toEqual(['zeta', 'alpha', 'beta']);
    expect(bangs(await shortcuts.page(scope(), operatorID, { offset: 1, limit: 1 }, { offset: 1, limit: 1 }))).toEqual(['zeta', 'beta']);
  });

  it('searches bang and preview within what the operator sees, with the exact count, filtered by scope, paged', async () => {
    expect(await shortcuts.search(scope(), operatorID, { pattern: '%alp%' }, { offset: '0', limit: 10 })).toMatchObject({ totalCount: 1, data: [{ shortcutID: ids.alpha }] });
    const personal = await shortcuts.search(scope(), operatorID, { scope: 'user-based', pattern: '%preview%' }, { offset: '0', limit: 1 });
    expect([personal.totalCount, bangs(personal.data)]).toEqual([2, ['Ápple']]);
    expect(await shortcuts.search(scope(), operatorID, { pattern: '%preview%' }, { offset: '9007199254740993', limit: 10 })).toEqual({ totalCount: 4, data: [] });
    expect(await shortcuts.search(scope(), operatorID, { pattern: '%nothing%' }, { offset: '0', limit: 10 })).toEqual({ totalCount: 0, data: [] });
  });
});
