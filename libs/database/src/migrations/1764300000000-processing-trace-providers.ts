import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plugins that provide processing traces declare their endpoint (the base URL
 * of docs/protocols/processing-traces.openapi.yaml). The providers of a
 * tenant are read through plugin_connections_live_tenant_plugin_key
 * (tenant_id, plugin_id WHERE live), then each plugin by its primary key.
 */
export class ProcessingTraceProviders1764300000000 implements MigrationInterface {
  name = 'ProcessingTraceProviders1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE plugins ADD COLUMN trace_endpoint_url text`);
    await queryRunner.query(
      `ALTER TABLE plugins ADD CONSTRAINT plugins_trace_endpoint_url_check CHECK (trace_endpoint_url IS NULL OR trace_endpoint_url ~ '^https?://')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE plugins DROP COLUMN trace_endpoint_url`);
  }
}
