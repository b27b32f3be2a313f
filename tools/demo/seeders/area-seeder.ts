/** What an area seeder of the demo fixture receives and returns. */
import { FixtureBuilder } from '@platform/testing';
import { EntityManager } from 'typeorm';

/** The base fixture (tenants, operators, plugins) an area seeder builds on. */
export interface BaseFixture {
  tenantID: string;
  otherTenantID: string;
  operators: Record<'owner' | 'member' | 'outsider', { operatorID: string }>;
  plugin: { pluginID: string };
  pluginConnection: { pluginConnectionID: string };
}

export interface AreaSeedContext {
  /** The seed's transaction. */
  manager: EntityManager;
  fixtures: FixtureBuilder;
  /** A short random tag of this run, for unique names. */
  run: string;
  base: BaseFixture;
}

/** Keys of the demo fixture added by areas (docs/quick-start.md, The demo fixture). */
export interface AreaFixtures {
  contactID?: string;
  sessionID?: string;
  /** An inbox the fixture's plugin connection posts to (npm run demo:chat). */
  inboxID?: string;
  campaignModelID?: string;
  helpdeskDomain?: string;
}

export type AreaSeeder = (context: AreaSeedContext) => Promise<Partial<AreaFixtures>>;
