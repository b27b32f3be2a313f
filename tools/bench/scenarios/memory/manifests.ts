import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { generateTestSigningKey, OUT_OF_REACH_RATE_LIMITS } from '@platform/testing';
import { BenchContext } from '../../context';
import { bytesOfQuantity } from '../../memory-cgroup';
import { PlatformApp, platformAddresses, PlatformPorts } from '../../support/start-apps';

/** What the app's Deployment says about its container: memory request and limit, and its own environment. */
export interface PodShape {
  memoryRequestBytes: number;
  memoryLimitBytes: number;
  env: Record<string, string>;
}

/** The ConfigMap's settings and each Deployment's own, with the secrets and addresses of this machine. */
export function productionLikeEnvironment(context: BenchContext, ports: PlatformPorts, providers: Record<string, string>): Record<PlatformApp, Record<string, string>> {
  const secret = () => randomBytes(24).toString('base64url');
  const key = generateTestSigningKey();
  const configMap = manifestObjects('configmap.yaml').find((object) => object.kind === 'ConfigMap')?.data as Record<string, string>;
  // Local PostgreSQL trusts loopback and ignores the password; Redis without one accepts any.
  const databaseUrl = Object.assign(new URL(context.databaseUrl), { password: secret() }).toString();
  const redisUrl = Object.assign(new URL(context.redisUrl), { password: secret() }).toString();
  const common = {
    ...configMap,
    ...OUT_OF_REACH_RATE_LIMITS,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    TRANSPORT_NAMESPACE: `bench-memory-${process.pid}`,
    TRANSPORT_SECRET: secret(),
    CACHE_SECRET: secret(),
    ...platformAddresses(ports),
    // Every load request comes from 127.0.0.1: lift the per-address limits a real crowd spreads over many.
    SIGN_IN_ATTEMPTS_PER_IP: '1000000',
    SIGN_IN_ATTEMPTS_PER_ADDRESS: '10000',
    SIGN_IN_ATTEMPTS_PER_ADDRESS_CEILING: '1000000',
    EMAIL_VERIFICATION_REQUESTS_PER_IP: '1000000',
    SIGN_UP_ATTEMPTS_PER_IP: '1000000',
    ...providers,
  };
  return {
    'core-tenants': {
      ...common,
      OPERATOR_JWT_PRIVATE_KEY: key.privateKeyPem,
      BILLING_API_KEY: `sk_live_${secret()}`,
      VM_PROVIDER_URL: 'http://127.0.0.1:9',
      VM_PROVIDER_TOKEN: secret(),
    },
    'services-api': {
      ...common,
      SIGN_UP_SECRET: secret(),
      WHATSAPP_ACCESS_TOKEN: `EAAG${secret()}`,
      WHATSAPP_APP_SECRET: secret(),
      WHATSAPP_WEBHOOK_VERIFY_TOKEN: secret(),
      WEBHOOK_SECRETS_KEY: secret(),
    },
    'plugins-helpdesk': { ...common },
  };
}

/** The objects of one file of k8s/ (k8s/base/ when the manifests live there). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests are checked where read
function manifestObjects(file: string): Record<string, any>[] {
  const path = ['k8s/base', 'k8s'].map((dir) => join(dir, file)).find((candidate) => existsSync(candidate));
  if (!path) throw new Error(`no ${file} under k8s/`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests are read loosely, then checked field by field
  return parseAllDocuments(readFileSync(path, 'utf8')).map((document) => document.toJS() as Record<string, any>);
}

/** An app's pod as its Deployment states it: memory request and limit, and the environment (NODE_OPTIONS) it runs with. */
export function podShape(app: PlatformApp | 'realtime-gateway'): PodShape {
  const deployment = manifestObjects(`${app}.yaml`).find((object) => object.kind === 'Deployment');
  const container = deployment?.spec.template.spec.containers[0];
  const memory = container?.resources;
  if (!memory?.limits?.memory || !memory?.requests?.memory) throw new Error(`k8s: ${app}'s Deployment has no memory request or limit`);
  const env: Record<string, string> = {};
  for (const variable of container.env ?? []) if (typeof variable.value === 'string') env[variable.name] = variable.value;
  return { memoryRequestBytes: bytesOfQuantity(String(memory.requests.memory)), memoryLimitBytes: bytesOfQuantity(String(memory.limits.memory)), env };
}
