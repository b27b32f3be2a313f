import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transport requests core-tenants has acted on (docs/transport.md,
 * Exactly once). Each writing handler inserts its request id in the
 * transaction of its change; the primary key refuses a second run of the
 * same id, whatever Redis says. The index serves the daily retention sweep.
 */
export class HandledTransportRequests1764880000000 implements MigrationInterface {
  name = 'HandledTransportRequests1764880000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE handled_transport_requests (
      request_id text NOT NULL,
      pattern text NOT NULL,
      handled_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT handled_transport_requests_pkey PRIMARY KEY (request_id),
      CONSTRAINT handled_transport_requests_request_id_check CHECK (char_length(request_id) BETWEEN 1 AND 200)
    )`);
    await queryRunner.query(`CREATE INDEX handled_transport_requests_handled_at_idx ON handled_transport_requests (handled_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE handled_transport_requests`);
  }
}
