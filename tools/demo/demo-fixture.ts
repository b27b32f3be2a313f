import { randomBytes } from 'node:crypto';
import { CoreTenantsConfig, issueOperatorToken } from '@apps/core-tenants';
import { FixtureBuilder } from '@platform/testing';
import { DataSource } from 'typeorm';
import { AREA_SEEDERS, AreaFixtures } from './seeders';

export interface DemoOperator {
  operatorID: string;
  email: string;
  password: string;
  token: string;
}

/** DESIGN.md section 10: the names demos, docs and black-box checks rely on. */
export interface DemoFixture extends AreaFixtures {
  tenantID: string;
  otherTenantID: string;
  operators: { owner: DemoOperator; member: DemoOperator; outsider: DemoOperator };
  plugin: { pluginID: string; pluginToken: string };
  pluginConnection: { pluginConnectionID: string; pluginConnectionToken: string };
  connections: { plain: string; paid: string; hosted: string };
}

/**
 * Creates a fresh, self-contained set of demo data (new tenants, operators and
 * plugins with unique names every run) and returns its fixture.
 */
export async function seedDemo(dataSource: DataSource, config: CoreTenantsConfig): Promise<DemoFixture> {
  const run = randomBytes(3).toString('hex');
  const password = `demo-${randomBytes(6).toString('base64url')}`;

  // One transaction: a failed seed leaves nothing half-made behind.
  return dataSource.transaction(async (manager) => {
    const fixtures = new FixtureBuilder(manager);
    const tenantID = await fixtures.tenant(`Acme Atendimento ${run}`);
    const otherTenantID = await fixtures.tenant(`Globex Suporte ${run}`);

    const makeOperator = async (role: string, firstname: string) => {
      const created = await fixtures.operator({ email: `${role}.${run}@acme-atendimento.com.br`, password, firstname });
      const { token } = await issueOperatorToken(config, created.operatorID);
      return { ...created, token };
    };
    const owner = await makeOperator('owner', 'Olivia');
    const member = await makeOperator('member', 'Marcos');
    const outsider = await makeOperator('outsider', 'Otto');
    await fixtures.membership(tenantID, owner.operatorID, 'owner');
    await fixtures.membership(tenantID, member.operatorID, 'member');
    await fixtures.membership(otherTenantID, outsider.operatorID, 'owner');

    const plugin = await fixtures.plugin({ name: 'Acme CRM Sync', urn: `urn:plugin:acme-crm-sync:${run}` });
    const pluginConnection = await fixtures.connection(tenantID, plugin.pluginID);

    const plainPlugin = await fixtures.plugin({ name: 'Tag Helper', urn: `urn:plugin:tag-helper:${run}`, kind: 'plain' });
    const paidPlugin = await fixtures.plugin({ name: 'Sentiment Pro', urn: `urn:plugin:sentiment-pro:${run}`, kind: 'paid' });
    const hostedPlugin = await fixtures.plugin({ name: 'Hosted WhatsApp Gateway', urn: `urn:plugin:hosted-gateway:${run}`, kind: 'hosted' });
    const plain = await fixtures.connection(tenantID, plainPlugin.pluginID, { kind: 'plain' });
    const paid = await fixtures.connection(tenantID, paidPlugin.pluginID, { kind: 'paid', subscriptionItemId: `si_demo${run}` });
    const hosted = await fixtures.connection(tenantID, hostedPlugin.pluginID, { kind: 'hosted', vmId: `vm-demo-${run}` });

    const base = {
      tenantID,
      otherTenantID,
      operators: { owner, member, outsider },
      plugin: { pluginID: plugin.pluginID, pluginToken: plugin.pluginToken },
      pluginConnection: { pluginConnectionID: pluginConnection.pluginConnectionID, pluginConnectionToken: pluginConnection.pluginConnectionToken },
      connections: { plain: plain.pluginConnectionID, paid: paid.pluginConnectionID, hosted: hosted.pluginConnectionID },
    };
    // Each area (campaigns, sessions, ...) adds its data and its keys of the fixture.
    let fixture: DemoFixture = base;
    for (const seedArea of AREA_SEEDERS) fixture = { ...fixture, ...(await seedArea({ manager, fixtures, run, base })) };
    return fixture;
  });
}
