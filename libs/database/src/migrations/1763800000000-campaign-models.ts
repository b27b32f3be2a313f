import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messaging channels, campaign models (message templates), campaigns, and the
 * per-tenant count of live campaign models (docs/campaign-models.md).
 */
export class CampaignModels1763800000000 implements MigrationInterface {
  name = 'CampaignModels1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Trigram search on names; btree_gin lets one GIN index start with tenant_id.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);

    await queryRunner.query(`
      CREATE TABLE messaging_channels (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        channel text NOT NULL,
        display_name text NOT NULL,
        account_id text NOT NULL,
        phone_number_id text NOT NULL,
        credentials_ref text NOT NULL,
        status text NOT NULL DEFAULT 'connected',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT messaging_channels_pkey PRIMARY KEY (id),
        CONSTRAINT messaging_channels_channel_check CHECK (channel IN ('whatsapp')),
        CONSTRAINT messaging_channels_status_check CHECK (status IN ('connected', 'disconnected')),
        CONSTRAINT messaging_channels_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX messaging_channels_tenant_id_idx ON messaging_channels (tenant_id)`);
    // Status webhooks name the provider account (WABA id): find its channels by it.
    await queryRunner.query(`CREATE INDEX messaging_channels_channel_account_idx ON messaging_channels (channel, account_id)`);

    await queryRunner.query(`
      CREATE TABLE campaign_models (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        channel text NOT NULL,
        channel_id uuid NOT NULL,
        name text COLLATE "C" NOT NULL,
        type text NOT NULL,
        description text,
        language text NOT NULL,
        status text NOT NULL,
        external_id text,
        gateway_meta jsonb NOT NULL DEFAULT '{}',
        gateway_raw jsonb NOT NULL DEFAULT '{}',
        meta jsonb NOT NULL DEFAULT '{}',
        tags text[] NOT NULL DEFAULT '{}',
        slots jsonb NOT NULL,
        model_variables jsonb NOT NULL DEFAULT '[]',
        error_code integer,
        error_message text,
        provider_status_at timestamptz,
        submission_attempts integer NOT NULL DEFAULT 0,
        approved_at timestamptz,
        evaluating_at timestamptz,
        processing_at timestamptz,
        refused_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz,
        created_by uuid,
        updated_by uuid,
        CONSTRAINT campaign_models_pkey PRIMARY KEY (id),
        CONSTRAINT campaign_models_name_check CHECK (name ~ '^[a-z0-9_]+$' AND length(name) <= 512),
        CONSTRAINT campaign_models_status_check CHECK (status IN (
          'awaiting_submission', 'evaluating', 'approved', 'refused', 'paused', 'disabled', 'flagged', 'archived', 'deleted')),
        CONSTRAINT campaign_models_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT campaign_models_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES messaging_channels (id) ON DELETE RESTRICT
      )`);
    // Name reservation: race-free, per tenant and channel (deleted models keep their name, as the provider does).
    await queryRunner.query(`CREATE UNIQUE INDEX campaign_models_tenant_channel_name_key ON campaign_models (tenant_id, channel_id, name)`);
    // The two list orders (page walks, and index-only scans for deep pages).
    await queryRunner.query(
      `CREATE INDEX campaign_models_tenant_created_idx ON campaign_models (tenant_id, created_at, id) WHERE deleted_at IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX campaign_models_tenant_id_idx ON campaign_models (tenant_id, id) WHERE deleted_at IS NULL`);
    // Filters of the list.
    await queryRunner.query(
      `CREATE INDEX campaign_models_tenant_status_idx ON campaign_models (tenant_id, status, created_at, id) WHERE deleted_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX campaign_models_tenant_type_idx ON campaign_models (tenant_id, type, created_at, id) WHERE deleted_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX campaign_models_tenant_channel_idx ON campaign_models (tenant_id, channel, created_at, id) WHERE deleted_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX campaign_models_tenant_channel_id_idx ON campaign_models (tenant_id, channel_id, created_at, id) WHERE deleted_at IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX campaign_models_tenant_tags_idx ON campaign_models USING gin (tenant_id, tags) WHERE deleted_at IS NULL`);
    await queryRunner.query(
      `CREATE INDEX campaign_models_tenant_name_trgm_idx ON campaign_models USING gin (tenant_id, name gin_trgm_ops) WHERE deleted_at IS NULL`,
    );
    // Filter by provider id, and status webhooks finding a template by its provider id.
    await queryRunner.query(`CREATE INDEX campaign_models_external_id_idx ON campaign_models (external_id, tenant_id) WHERE external_id IS NOT NULL`);

    // Exact totalCount without scanning a tenant's rows: one row per tenant,
    // kept by statement-level triggers in the same transaction as the rows.
    await queryRunner.query(`
      CREATE TABLE campaign_model_counts (
        tenant_id uuid NOT NULL,
        live_count bigint NOT NULL DEFAULT 0,
        CONSTRAINT campaign_model_counts_pkey PRIMARY KEY (tenant_id),
        CONSTRAINT campaign_model_counts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE FUNCTION campaign_model_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Live rows (deleted_at IS NULL) added minus removed, per tenant, for the whole statement.
        WITH delta AS (
          SELECT tenant_id, sum(change) AS change FROM (
            SELECT tenant_id, 1 AS change FROM new_rows WHERE deleted_at IS NULL
            UNION ALL
            SELECT tenant_id, -1 AS change FROM old_rows WHERE deleted_at IS NULL
          ) changes GROUP BY tenant_id
        )
        INSERT INTO campaign_model_counts AS counts (tenant_id, live_count)
        SELECT tenant_id, change FROM delta WHERE change <> 0
        ON CONFLICT (tenant_id) DO UPDATE SET live_count = counts.live_count + excluded.live_count;
        RETURN NULL;
      END $$`);
    // A trigger with transition tables serves one event only: one function per event.
    await queryRunner.query(`
      CREATE FUNCTION campaign_model_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO campaign_model_counts AS counts (tenant_id, live_count)
        SELECT tenant_id, count(*) FROM new_rows WHERE deleted_at IS NULL GROUP BY tenant_id
        ON CONFLICT (tenant_id) DO UPDATE SET live_count = counts.live_count + excluded.live_count;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION campaign_model_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO campaign_model_counts AS counts (tenant_id, live_count)
        SELECT tenant_id, -count(*) FROM old_rows WHERE deleted_at IS NULL GROUP BY tenant_id
        ON CONFLICT (tenant_id) DO UPDATE SET live_count = counts.live_count + excluded.live_count;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER campaign_model_counts_insert AFTER INSERT ON campaign_models
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_model_counts_on_insert()`);
    await queryRunner.query(`
      CREATE TRIGGER campaign_model_counts_update AFTER UPDATE ON campaign_models
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_model_counts_apply()`);
    await queryRunner.query(`
      CREATE TRIGGER campaign_model_counts_delete AFTER DELETE ON campaign_models
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_model_counts_on_delete()`);

    await queryRunner.query(`
      CREATE TABLE campaigns (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        campaign_model_id uuid,
        name text NOT NULL,
        status text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT campaigns_pkey PRIMARY KEY (id),
        CONSTRAINT campaigns_status_check CHECK (status IN ('draft', 'scheduled', 'running', 'paused', 'completed', 'canceled', 'failed')),
        CONSTRAINT campaigns_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
        CONSTRAINT campaigns_campaign_model_id_fkey FOREIGN KEY (campaign_model_id) REFERENCES campaign_models (id) ON DELETE SET NULL
      )`);
    // Campaign stats: one GROUP BY over an index-only scan of the tenant's entries.
    await queryRunner.query(`CREATE INDEX campaigns_tenant_status_idx ON campaigns (tenant_id, status)`);
    await queryRunner.query(`CREATE INDEX campaigns_campaign_model_id_idx ON campaigns (campaign_model_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE campaigns`);
    await queryRunner.query(`DROP TABLE campaign_models`);
    await queryRunner.query(`DROP FUNCTION campaign_model_counts_apply(), campaign_model_counts_on_insert(), campaign_model_counts_on_delete()`);
    await queryRunner.query(`DROP TABLE campaign_model_counts`);
    await queryRunner.query(`DROP TABLE messaging_channels`);
  }
}
