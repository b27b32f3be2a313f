import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { checkManifests, findKustomize, lintOverlays, overlaysOf, readOverlay, walkKustomization } from './k8s-manifests.mjs';

const k8s = fileURLToPath(new URL('../../k8s', import.meta.url));
const production = join(k8s, 'overlays/production');
const kustomize = findKustomize();
const shipped = () => readOverlay(k8s, production).objects;
const withPolicy = (objects, name, change) =>
  objects.map((entry) => (entry.object.kind === 'NetworkPolicy' && entry.object.metadata.name === name ? { ...entry, object: change(structuredClone(entry.object)) } : entry));
/** kind/namespace/name and the images of each object, in one order: what the checks read. */
const summary = (objects) =>
  objects
    .map(({ object }) => `${object.kind} ${object.metadata.namespace ?? ''}/${object.metadata.name} ${(object.spec?.template?.spec?.containers ?? []).map((c) => c.image).join(' ')}`)
    .sort();

describe('k8s manifests', () => {
  it('build every overlay, and their NetworkPolicies pass every check', () => {
    expect(overlaysOf(k8s).map(({ name }) => name).sort()).toEqual(['production', 'staging']);
    expect(lintOverlays(k8s, undefined)).toEqual([]);
    for (const { dir } of overlaysOf(k8s)) {
      const { objects, problems, namespace } = readOverlay(k8s, dir);
      expect(problems).toEqual([]);
      expect(checkManifests(objects, namespace)).toEqual([]);
      expect(objects.filter(({ object }) => object.kind === 'NetworkPolicy').length).toBeGreaterThan(5);
    }
  });

  it.skipIf(!kustomize)('render every overlay with kustomize, into the objects the walk finds', () => {
    expect(lintOverlays(k8s, kustomize)).toEqual([]);
    for (const { dir } of overlaysOf(k8s)) {
      const walked = readOverlay(k8s, dir);
      const rendered = readOverlay(k8s, dir, kustomize);
      // The walk leaves the migration Job's name to kustomize's replacements.
      const jobless = (lines) => lines.map((line) => line.replace(/platform-migrate-[0-9.]+/, 'platform-migrate'));
      expect(jobless(summary(rendered.objects))).toEqual(jobless(summary(walked.objects)));
    }
  });

  it.skipIf(!kustomize)('give staging a namespace, transport namespace and replicas of its own, and production the base', () => {
    const find = (objects, kind, name) => objects.find(({ object }) => object.kind === kind && object.metadata.name === name)?.object;
    const staging = readOverlay(k8s, join(k8s, 'overlays/staging'), kustomize).objects;
    expect(find(staging, 'Namespace', 'platform-staging')).toBeDefined();
    expect(find(staging, 'ConfigMap', 'platform-config').data.TRANSPORT_NAMESPACE).toBe('staging');
    expect(find(staging, 'Deployment', 'services-api').spec.replicas).toBe(1);
    const prod = readOverlay(k8s, production, kustomize).objects;
    expect(find(prod, 'Namespace', 'platform')).toBeDefined();
    expect(find(prod, 'ConfigMap', 'platform-config').data.TRANSPORT_NAMESPACE).toBe('production');
    expect(find(prod, 'Deployment', 'services-api').spec.replicas).toBe(2);
    expect(find(prod, 'Job', 'platform-migrate-0.84.1').spec.template.spec.containers[0].image).toBe('registry.example.internal/platform/core-tenants:0.84.1');
  });

  describe('an overlay whose references do not resolve', () => {
    let dir;
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('is refused by the walk, naming each reference, and by kustomize', () => {
      dir = mkdtempSync(join(tmpdir(), 'platform-overlay-'));
      writeFileSync(
        join(dir, 'kustomization.yaml'),
        `namespace: platform-test
resources: [${relative(dir, join(k8s, 'base'))}, missing.yaml]
images: [{ name: registry.example.internal/platform/service-api, newTag: 1.0.0 }]
replicas: [{ name: core-tenant, count: 1 }]
patches:
  - path: config.yaml
  - target: { kind: HorizontalPodAutoscaler, name: helpdesk }
    patch: '[{ op: replace, path: /spec/minReplicas, value: 1 }]'
`,
      );
      writeFileSync(join(dir, 'config.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: platform-configuration }\ndata: { LOG_LEVEL: debug }\n');
      expect(walkKustomization(dir, dir).problems).toEqual([
        './kustomization.yaml: resource missing.yaml does not exist',
        './kustomization.yaml: patch config.yaml matches no resource',
        './kustomization.yaml: patch {"kind":"HorizontalPodAutoscaler","name":"helpdesk"} matches no resource',
        './kustomization.yaml: replicas of core-tenant, which no Deployment is',
        './kustomization.yaml: image registry.example.internal/platform/service-api, which no container runs',
      ]);
      if (kustomize) expect(readOverlay(dir, dir, kustomize).problems.at(-1)).toMatch(/failed: .*missing\.yaml/s);
    });
  });

  it('refuse the base alone: its images carry no release tag', () => {
    const { objects } = walkKustomization(join(k8s, 'base'), k8s);
    expect(checkManifests(objects, 'platform')).toEqual([
      expect.stringMatching(/Job platform-migrate runs registry.example.internal\/platform\/core-tenants, without a release tag/),
      expect.stringMatching(/Deployment core-tenants runs .*core-tenants, without a release tag/),
      expect.stringMatching(/Deployment services-api runs .*services-api, without a release tag/),
      expect.stringMatching(/Deployment plugins-helpdesk runs .*plugins-helpdesk, without a release tag/),
      expect.stringMatching(/Deployment realtime-gateway runs .*realtime-gateway, without a release tag/),
      expect.stringMatching(/Deployment operator-console runs .*operator-console, without a release tag/),
    ]);
  });

  it('refuse a namespace without the default deny', () => {
    const objects = shipped().filter(({ object }) => object.metadata.name !== 'default-deny');
    expect(checkManifests(objects, 'platform')).toEqual([expect.stringMatching(/no NetworkPolicy denies all ingress and egress/)]);
  });

  it('refuse a metrics port open beyond the monitoring namespace', () => {
    const objects = withPolicy(shipped(), 'core-tenants', (policy) => {
      policy.spec.ingress[1].from.push({ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'services-api' } } });
      return policy;
    });
    expect(checkManifests(objects, 'platform')).toEqual([expect.stringMatching(/core-tenants: the metrics port 9466 is admitted from outside the monitoring namespace/)]);
  });

  it('refuse a port the selected pods do not listen on, a selector no workload matches, and egress anywhere outside a providers policy', () => {
    const objects = withPolicy(shipped(), 'services-api', (policy) => {
      policy.spec.ingress[0].ports = [{ protocol: 'TCP', port: 3002 }];
      policy.spec.egress[0].to = [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'pg-bouncer' } } }];
      policy.spec.egress.push({ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] });
      return policy;
    });
    expect(checkManifests(objects, 'platform')).toEqual([
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
    spec: { containers: [{ name: worker, image: worker:1.0.0 }] }
`).map((document) => ({ file: 'worker.yaml', object: document.toJS() }));
    expect(checkManifests([...shipped(), extra], 'platform')).toEqual(['worker: no NetworkPolicy selects its pods']);
  });

  it('show in docs/deployment.md the Redis ACL file the fault suite runs with, as it is', () => {
    const acl = readFileSync(new URL('../../k8s/redis/users.acl', import.meta.url), 'utf8').trimEnd();
    const docs = readFileSync(new URL('../../docs/deployment.md', import.meta.url), 'utf8');
    expect(docs).toContain(`\`\`\`\n${acl}\n\`\`\``);
  });
});
