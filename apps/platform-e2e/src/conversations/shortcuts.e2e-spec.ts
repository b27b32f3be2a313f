import { ConversationFixtures, singleError, withTableMissing } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TestPlatform } from '../support/platform';
import { queryAsSent } from '../support/sent-as-is';
import { describeStandardRefusals } from '../support/standard-refusals';

interface Shortcut {
  shortcutID: string;
  operatorID: string;
  shortcutBang: string;
  shortcutScope: string;
}

describe('GET /v1/tenants/:tenantID/operators/shortcuts (operation 7)', () => {
  let platform: TestPlatform;
  let conversations: ConversationFixtures;
  let tenantID: string;
  let otherTenantID: string;
  let ownerID: string;
  let memberID: string;
  let ownerToken: string;
  let memberToken: string;
  let outsiderToken: string;
  /** Bang of every shortcut made in beforeAll, by id. */
  const bangs = new Map<string, string>();

  const list = async (token: string, query = '', tenant = tenantID) =>
    platform.api.services.GET('/v1/tenants/{tenantID}/operators/shortcuts', {
      params: { path: { tenantID: tenant }, query: queryAsSent(query) },
      headers: { authorization: `Bearer ${token}` },
    });

  /** The ids of shortcuts with these bangs, ties in id order (the list's order for equal bangs). */
  const idsOf = (...wanted: string[][]) =>
    wanted.flatMap((group) => [...bangs].filter(([, bang]) => group.includes(bang)).map(([id]) => id).sort());

  beforeAll(async () => {
    platform = await startPlatform({ apps: ['services-api'] });
    const { fixtures } = platform;
    conversations = new ConversationFixtures(platform.dataSource);
    tenantID = await fixtures.tenant();
    otherTenantID = await fixtures.tenant();
    const owner = await fixtures.operator();
    const member = await fixtures.operator();
    const outsider = await fixtures.operator();
    ownerID = owner.operatorID;
    memberID = member.operatorID;
    await fixtures.membership(tenantID, ownerID, 'owner');
    await fixtures.membership(tenantID, memberID, 'member');
    await fixtures.membership(otherTenantID, outsider.operatorID, 'owner');
    ownerToken = await platform.tokenFor(ownerID);
    memberToken = await platform.tokenFor(memberID);
    outsiderToken = await platform.tokenFor(outsider.operatorID);

    const make = async (scope: 'user-based' | 'tenant-based', operatorID: string, bang: string, preview = '') => {
      bangs.set(await conversations.shortcut(tenantID, { scope, operatorID, bang, preview }), bang);
    };
    // The owner's personal ones, mixed case and accents; "ola" and "Olá" compare equal.
    for (const bang of ['zebra', 'Olá', 'Ábaco', 'ola', 'abacate']) await make('user-based', ownerID, bang, `pessoal ${bang}`);
    // The member's personal ones: never shown to the owner.
    await make('user-based', memberID, 'segredo do membro', 'Preview PRIVADO do membro');
    await make('user-based', memberID, '50% member', '');
    // Company-wide, by both; "acao" and "Ação" compare equal.
    for (const [bang, preview] of [
      ['eve', 'Boa noite'],
      ['Ação', 'Promoção de 50% OFF'],
      ['Émile', 'Resposta padrão'],
      ['acao', 'Promoção 50 off'],
      ['Bom dia', 'Bom dia! Como posso ajudar?'],
      ['under_score', 'nada'],
      ['underXscore', 'nada'],
      ['back\\slash', 'nada'],
    ]) {
      await make('tenant-based', bang === 'eve' ? memberID : ownerID, bang, preview);
    }
    // Another tenant's company-wide shortcut, with a bang every search below would match.
    await conversations.shortcut(otherTenantID, { scope: 'tenant-based', operatorID: outsider.operatorID, bang: 'Ação abacate 50% under_score' });
  });
  afterAll(() => platform.close());

  it('lists personal shortcuts first, then company-wide ones, each by bang ignoring case and accents, then by id', async () => {
    const response = await list(ownerToken, '?perPage=200');
    expect(response.response.status).toBe(200);
    const ids = response.data!.data.map((shortcut: Shortcut) => shortcut.shortcutID);
    expect(ids).toEqual(
      idsOf(['abacate'], ['Ábaco'], ['ola', 'Olá'], ['zebra'], ['acao', 'Ação'], ['back\\slash'], ['Bom dia'], ['Émile'], ['eve'], ['under_score'], ['underXscore']),
    );
    expect(response.data!.meta).toEqual({ count: 13, currentPage: 1, hasMore: false, perPage: 200, totalCount: 13, totalPages: 1 });
  });

  it('answers every field of a shortcut', async () => {
    const response = await list(ownerToken, '?search=bom%20dia');
    expect(response.data!.data).toEqual([
      {
        shortcutID: expect.any(String),
        tenantID,
        organizationID: tenantID,
        operatorID: ownerID,
        shortcutBang: 'Bom dia',
        shortcutPreview: 'Bom dia! Como posso ajudar?',
        shortcutScope: 'tenant-based',
        shortcutContents: [{ contentID: expect.any(String), contentKey: 'text', contentValue: 'Bom dia! Como posso ajudar?' }],
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);
  });

  it('never shows another operator\'s personal shortcuts, under any filter or search', async () => {
    const queries = ['', '?scope=user-based', '?scope=tenant-based', '?search=segredo', '?search=PRIVADO', '?search=membro&scope=user-based', '?search=50%25'];
    for (const query of queries) {
      const response = await list(ownerToken, `${query}${query ? '&' : '?'}perPage=200`);
      expect(response.response.status).toBe(200);
      const owners = response.data!.data.filter((shortcut: Shortcut) => shortcut.shortcutScope === 'user-based').map((shortcut: Shortcut) => shortcut.operatorID);
      expect(owners.every((operatorID: string) => operatorID === ownerID), query).toBe(true);
      expect(JSON.stringify(response.data!), query).not.toContain('membro');
    }
    const member = await list(memberToken, '?scope=user-based');
    expect(member.data!.data.map((shortcut: Shortcut) => shortcut.shortcutBang)).toEqual(['50% member', 'segredo do membro']);
  });

  it('filters by scope', async () => {
    const personal = await list(ownerToken, '?scope=user-based');
    expect(personal.data!.data.map((shortcut: Shortcut) => shortcut.shortcutID)).toEqual(idsOf(['abacate'], ['Ábaco'], ['ola', 'Olá'], ['zebra']));
    expect(personal.data!.meta.totalCount).toBe(5);
    const company = await list(memberToken, '?scope=tenant-based');
    expect(company.data!.data.map((shortcut: Shortcut) => shortcut.shortcutID)).toEqual(
      idsOf(['acao', 'Ação'], ['back\\slash'], ['Bom dia'], ['Émile'], ['eve'], ['under_score'], ['underXscore']),
    );
    expect(company.data!.meta.totalCount).toBe(8);
  });

  it('searches the bang and the preview, case-insensitively, in list order', async () => {
    const byBang = await list(ownerToken, '?search=ABA');
    expect(byBang.data!.data.map((shortcut: Shortcut) => shortcut.shortcutBang)).toEqual(['abacate']);
    expect(byBang.data!.meta).toEqual({ count: 1, currentPage: 1, hasMore: false, perPage: 20, totalCount: 1, totalPages: 1 });
    // Case-insensitive beyond ASCII, but accents count: "ÁBA" finds "Ábaco", "ABA" does not.
    const accented = await list(ownerToken, `?search=${encodeURIComponent('ÁBA')}`);
    expect(accented.data!.data.map((shortcut: Shortcut) => shortcut.shortcutBang)).toEqual(['Ábaco']);
    const byPreview = await list(ownerToken, '?search=promo%C3%87%C3%83o');
    expect(byPreview.data!.data.map((shortcut: Shortcut) => shortcut.shortcutID)).toEqual(idsOf(['acao', 'Ação']));
    const both = await list(ownerToken, '?search=ola&scope=user-based');
    expect(both.data!.data.map((shortcut: Shortcut) => shortcut.shortcutID)).toEqual(idsOf(['ola']));
  });

  it('takes % and _ and \\ in a search as plain characters', async () => {
    const percent = await list(ownerToken, `?search=${encodeURIComponent('50%')}`);
    expect(percent.data!.data.map((shortcut: Shortcut) => shortcut.shortcutBang)).toEqual(['Ação']);
    const underscore = await list(ownerToken, '?search=_');
    expect(underscore.data!.data.map((shortcut: Shortcut) => shortcut.shortcutBang)).toEqual(['under_score']);
    const backslash = await list(ownerToken, `?search=${encodeURIComponent('k\\s')}`);
    expect(backslash.data!.data.map((shortcut: Shortcut) => shortcut.shortcutBang)).toEqual(['back\\slash']);
    const nothing = await list(ownerToken, '?search=%25%25%25');
    expect({ status: nothing.response.status, body: nothing.data }).toMatchObject({ status: 200, body: { data: [], meta: { totalCount: 0, totalPages: 0, hasMore: false, count: 0 } } });
  });

  it('walks pages of one shortcut to the same list as one big page, 206 until the last', async () => {
    for (const query of ['', '&scope=tenant-based', '&search=a']) {
      const all = await list(ownerToken, `?perPage=200${query}`);
      const walked: string[] = [];
      for (let page = 1; page <= all.data!.meta.totalCount; page += 1) {
        const response = await list(ownerToken, `?perPage=1&page=${page}${query}`);
        const last = page === all.data!.meta.totalCount;
        expect(response.response.status).toBe(last ? 200 : 206);
        expect(response.data!.meta).toEqual({
          count: 1,
          currentPage: page,
          hasMore: !last,
          perPage: 1,
          totalCount: all.data!.meta.totalCount,
          totalPages: all.data!.meta.totalCount,
        });
        walked.push(response.data!.data[0].shortcutID);
      }
      expect(walked, query).toEqual(all.data!.data.map((shortcut: Shortcut) => shortcut.shortcutID));
    }
  });

  it('answers a page across the personal and company-wide parts', async () => {
    const all = await list(ownerToken, '?perPage=200');
    const page = await list(ownerToken, '?perPage=3&page=2');
    expect(page.response.status).toBe(206);
    expect(page.data!.data).toEqual(all.data!.data.slice(3, 6));
    expect(page.data!.meta).toEqual({ count: 3, currentPage: 2, hasMore: true, perPage: 3, totalCount: 13, totalPages: 5 });
  });

  it('answers a page past the end empty, up to the largest page number', async () => {
    for (const query of ['?page=3&perPage=10', '?page=9007199254740991&perPage=200', '?page=9007199254740991&search=a']) {
      const response = await list(ownerToken, query);
      expect(response.response.status, query).toBe(200);
      expect(response.data!.data).toEqual([]);
      expect(response.data!.meta).toMatchObject({ count: 0, hasMore: false });
    }
  });

  it('keeps totalCount exact as shortcuts come and go', async () => {
    const before = (await list(memberToken)).data!.meta.totalCount;
    const added = await conversations.shortcut(tenantID, { scope: 'tenant-based', operatorID: ownerID, bang: 'temporário' });
    const personal = await conversations.shortcut(tenantID, { scope: 'user-based', operatorID: memberID, bang: 'meu' });
    expect((await list(memberToken)).data!.meta.totalCount).toBe(before + 2);
    await platform.dataSource.query(`UPDATE shortcuts SET scope = 'user-based' WHERE id = $1`, [added]);
    expect((await list(memberToken)).data!.meta.totalCount).toBe(before + 1);
    await platform.dataSource.query('DELETE FROM shortcuts WHERE id = ANY ($1)', [[added, personal]]);
    expect((await list(memberToken)).data!.meta.totalCount).toBe(before);
  });

  describeStandardRefusals({
    method: 'GET',
    path: '/v1/tenants/{tenantID}/operators/shortcuts',
    client: () => platform.api.services,
    tenantID: () => tenantID,
    valid: () => `Bearer ${ownerToken}`,
    outsider: () => `Bearer ${outsiderToken}`,
    invalid: async () => {
      const plugin = await platform.fixtures.plugin();
      const connection = await platform.fixtures.connection(tenantID, plugin.pluginID);
      return [plugin.authorization, connection.authorization];
    },
    // Operation 7 does not tell a tenant that does not exist from one the caller is not in.
    unknownTenant: 403,
  });

  describe('errors', () => {
    it('is 400 1002 naming each invalid parameter', async () => {
      const cases: [string, string, { field: string; received: string; allowed: string }[]][] = [
        [tenantID, '?perPage=201', [{ field: 'perPage', received: '201', allowed: 'integer 1-200' }]],
        [tenantID, '?perPage=0&page=0', [
          { field: 'page', received: '0', allowed: 'integer 1-9007199254740991' },
          { field: 'perPage', received: '0', allowed: 'integer 1-200' },
        ]],
        [tenantID, '?scope=personal', [{ field: 'scope', received: 'personal', allowed: 'one of: tenant-based, user-based' }]],
        [tenantID, '?search=', [{ field: 'search', received: '', allowed: 'string of 1-120 characters' }]],
        [tenantID, `?search=${'á'.repeat(121)}`, [{ field: 'search', received: 'á'.repeat(121), allowed: 'string of 1-120 characters' }]],
        [tenantID, '?sort=bang', [{ field: 'sort', received: 'bang', allowed: 'no such field' }]],
      ];
      for (const [tenant, query, fields] of cases) {
        const response = await list(ownerToken, query, tenant);
        expect(response.response.status, query).toBe(400);
        expect(singleError(response.error)).toEqual({ statusCode: 400, error: 'RequestValidationError', error_code: 1002, message: 'Invalid request data.', fields });
      }
      expect((await list(ownerToken, `?search=${'á'.repeat(120)}`)).response.status).toBe(200);
    });

    it('is 500 5999 without internals when the database fails', async () => {
      await withTableMissing(platform.dataSource, 'shortcut_counts', async () => {
        const response = await list(ownerToken);
        expect(response.response.status).toBe(500);
        expect(singleError(response.error)).toEqual({
          statusCode: 500,
          error: 'UnknownError',
          error_code: 5999,
          message: 'For some unknown reason your request has not succeeded.',
        });
        expect(JSON.stringify(response.error)).not.toContain('shortcut');
      });
    });
  });
});
