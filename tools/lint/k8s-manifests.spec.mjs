import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkManifests, readManifests } from './k8s-manifests.mjs';

const k8s = fileURLToPath(new URL('../../k8s', import.meta.url));
const shipped = () => readManifests(k8s).objects;
const withPolicy = (objects, name, change) =>
  objects.map((entry) => (entry.object.kind === 'NetworkPolicy' && entry.object.metadata.name === name ? { ...entry, object: change(structuredClone(entry.object)) } : entry));

describe('k8s manifests', () => {
  it('parse, and their NetworkPolicies pass every check', () => {
    const { objects, problems } = readManifests(k8s);
    expect(problems).toEqual([]);
    expect(checkManifests(objects)).toEqual([]);
    expect(objects.filter(({ object }) => object.kind === 'NetworkPolicy').length).toBeGreaterThan(5);
  });

  it('refuse a namespace without the default deny', () => {
    const objects = shipped().filter(({ object }) => object.metadata.name !== 'default-deny');
    expect(checkManifests(objects)).toEqual([expect.stringMatching(/no NetworkPolicy denies all ingress and egress/)]);
  });

  it('refuse a metrics port open beyond the monitoring namespace', () => {
    const objects = withPolicy(shipped(), 'core-tenants', (policy) => {
      policy.spec.ingress[1].from.push({ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'services-api' } } });
      return policy;
    });
    expect(checkManifests(objects)).toEqual([expect.stringMatching(/core-tenants: the metrics port 9466 is admitted from outside the monitoring namespace/)]);
  });

  it('refuse a port the selected pods do not listen on, a selector no workload matches, and egress anywhere outside a providers policy', () => {
    const objects = withPolicy(shipped(), 'services-api', (policy) => {
      policy.spec.ingress[0].ports = [{ protocol: 'TCP', port: 3002 }];
      policy.spec.egress[0].to = [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'pg-bouncer' } } }];
      policy.spec.egress.push({ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] });
      return policy;
    });
    expect(checkManifests(objects)).toEqual([
      expect.stringMatching(/services-api: admits port 3002/),
      expect.stringMatching(/services-api: a rule names pods .*pg-bouncer/),
      expect.stringMatching(/services-api: egress to any address outside a \*-providers policy/),
    ]);
  });

  it('refuse a workload no policy of its own selects', () => {
    const [extra] = parseAllDocuments(`
apiVersion: apps/v1
kind: Deployment
metadata: { name: worker, namespace: platform }
spec:
  selector: { matchLabels: { app.kubernetes.io/name: worker } }
  template:
    metadata: { labels: { app.kubernetes.io/name: worker } }
    spec: { containers: [{ name: worker, image: worker }] }
`).map((document) => ({ file: 'worker.yaml', object: document.toJS() }));
    expect(checkManifests([...shipped(), extra])).toEqual(['worker: no NetworkPolicy selects its pods']);
  });

  it('show in docs/deployment.md the Redis ACL file the fault suite runs with, as it is', () => {
    const acl = readFileSync(new URL('../../k8s/redis/users.acl', import.meta.url), 'utf8').trimEnd();
    const docs = readFileSync(new URL('../../docs/deployment.md', import.meta.url), 'utf8');
    expect(docs).toContain(`\`\`\`\n${acl}\n\`\`\``);
  });
});
