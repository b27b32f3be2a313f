import { randomBytes } from 'node:crypto';
import { CoreTenantsConfig, issueOperatorToken, RestVmProvider, StripeBillingProvider } from '@apps/core-tenants';
import { FixtureBuilder } from '@platform/testing';
import { DataSource } from 'typeorm';
import { AREA_SEEDERS, AreaFixtures } from './seeders';

export interface DemoOperator {
  operatorID: string;
  email: string;
  password: string;
  token: string;
}

/** The demo fixture (docs/quick-start.md): the names demos, docs and black-box checks rely on. */
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
export async function seedDemo(dataSource: DataSource, config: CoreTenantsConfig, progress: (line: string) => void = () => undefined): Promise<DemoFixture> {
  const run = randomBytes(3).toString('hex');
  const password = `demo-${randomBytes(6).toString('base64url')}`;

  // One transaction: a failed seed leaves nothing half-made behind.
  return dataSource.transaction(async (manager) => {
    const fixtures = new FixtureBuilder(manager);
    const subscriptionID = `sub_demo_${run}`;
    progress('tenants and operators');
    const tenantID = await fixtures.tenant(`Acme Atendimento ${run}`, { billingSubscriptionID: subscriptionID });
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

    // The fixture's plugin is the helpdesk plugin (known to plugins-helpdesk by its URN), so
    // its credentials work on every operation that accepts plugins. Seeding gives it a new token.
    progress('plugins and their connections (the paid and hosted ones at the provider sandbox)');
    const plugin = await fixtures.pluginWithUrn(process.env.HELPDESK_PLUGIN_URN ?? 'urn:plugin:helpdesk', 'Central de Ajuda');
    const pluginConnection = await fixtures.connection(tenantID, plugin.pluginID);

    const plainPlugin = await fixtures.plugin({ name: 'Tag Helper', urn: `urn:plugin:tag-helper:${run}`, kind: 'plain' });
    const priceID = `price_sentiment_pro_${run}`;
    const paidPlugin = await fixtures.plugin({ name: 'Sentiment Pro', urn: `urn:plugin:sentiment-pro:${run}`, kind: 'paid', billingPriceID: priceID });
    const hostedPlugin = await fixtures.plugin({
      name: 'Hosted WhatsApp Gateway',
      urn: `urn:plugin:hosted-gateway:${run}`,
      kind: 'hosted',
      vmImage: 'whatsapp-gateway:2.4',
    });
    const plain = await fixtures.connection(tenantID, plainPlugin.pluginID, { kind: 'plain' });
    const providers = await provisionAtProviders(config, { subscriptionID, priceID, tenantID, run });
    const paid = await fixtures.connection(tenantID, paidPlugin.pluginID, { kind: 'paid', subscriptionItemID: providers.subscriptionItemID });
    const hosted = await fixtures.connection(tenantID, hostedPlugin.pluginID, { kind: 'hosted', vmID: providers.vmID });

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
    for (const seedArea of AREA_SEEDERS) {
      progress(seedArea.name.replace(/^seed/, '').replace(/[A-Z]/g, (letter, index) => `${index > 0 ? ' ' : ''}${letter.toLowerCase()}`));
      fixture = { ...fixture, ...(await seedArea({ manager, fixtures, run, base })) };
    }
    return fixture;
  });
}

/** The same fixture with operator tokens issued now (the demo data itself is seeded once). */
export async function refreshDemoTokens(fixture: DemoFixture, config: CoreTenantsConfig): Promise<DemoFixture> {
  const refreshed = async (operator: DemoOperator): Promise<DemoOperator> => ({ ...operator, token: (await issueOperatorToken(config, operator.operatorID)).token });
  const { owner, member, outsider } = fixture.operators;
  return { ...fixture, operators: { owner: await refreshed(owner), member: await refreshed(member), outsider: await refreshed(outsider) } };
}

/**
 * The paid connection's subscription item and the hosted one's VM, made at
 * the configured providers (the sandbox of `npm start`), so deleting them
 * works end to end. With no provider reachable the seed still completes, with
 * ids the providers do not know, and says so on stderr.
 */
async function provisionAtProviders(
  config: CoreTenantsConfig,
  input: { subscriptionID: string; priceID: string; tenantID: string; run: string },
): Promise<{ subscriptionItemID: string; vmID: string }> {
  const billing = new StripeBillingProvider({ baseUrl: config.BILLING_API_URL, apiKey: config.BILLING_API_KEY, timeoutMs: 2_000 });
  const vms = new RestVmProvider({ baseUrl: config.VM_PROVIDER_URL, token: config.VM_PROVIDER_TOKEN, timeoutMs: 2_000 });
  const subscriptionItemID = await billing
    .createSubscriptionItem({ subscriptionID: input.subscriptionID, priceID: input.priceID, idempotencyKey: `demo-${input.run}` })
    .catch(() => {
      process.stderr.write(`demo seed: billing provider at ${config.BILLING_API_URL} unreachable; the paid connection's item exists only here\n`);
      return `si_demo_${input.run}`;
    });
  const vmID = await vms.createVm({ image: 'whatsapp-gateway:2.4', tenantID: input.tenantID, pluginConnectionID: `demo-${input.run}`, idempotencyKey: `demo-vm-${input.run}` }).catch(() => {
    process.stderr.write(`demo seed: VM provider at ${config.VM_PROVIDER_URL} unreachable; the hosted connection's VM exists only here\n`);
    return `vm-demo-${input.run}`;
  });
  return { subscriptionItemID, vmID };
}
