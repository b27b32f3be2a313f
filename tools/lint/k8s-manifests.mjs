// Checks the manifests kustomize applies (k8s/kustomization.yaml) without a
// cluster: every file parses, every object names its kind and lives in the
// platform namespace, and the NetworkPolicies say what docs/deployment.md
// (Network policies) says they do:
//   - a default deny of both directions for every pod of the namespace;
//   - every Deployment and Job selected by a policy of its own;
//   - every port a policy admits is a port of the pods it selects, and every
//     pod selector of a rule matches the pods of some workload (no typo that
//     silently admits nothing);
//   - a metrics port (the container port named `metrics`) admitted from the
//     monitoring namespace only;
//   - egress to any address (0.0.0.0/0) only in the `*-providers` policies,
//     the one part ops fill in.
// Fails (exit 1) naming each problem.
//
//   node tools/lint/k8s-manifests.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const NAMESPACE = 'platform';
const MONITORING = { 'kubernetes.io/metadata.name': 'monitoring' };

/** The objects of the files kustomization.yaml lists, each with the file it came from. */
export function readManifests(k8sDir) {
  const kustomization = parseAllDocuments(readFileSync(join(k8sDir, 'kustomization.yaml'), 'utf8'))[0].toJS();
  const objects = [];
  const problems = [];
  for (const file of kustomization.resources) {
    for (const document of parseAllDocuments(readFileSync(join(k8sDir, file), 'utf8'))) {
      if (document.errors.length > 0) problems.push(`${file}: ${document.errors.map((error) => error.message).join('; ')}`);
      const object = document.toJS();
      if (object) objects.push({ file, object });
    }
  }
  return { objects, problems };
}

const matches = (selector, labels) => Object.entries(selector ?? {}).every(([key, value]) => labels[key] === value);
const sameLabels = (a, b) => JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort());

/** Problems of a set of objects (`{file, object}`), an empty list when there are none. */
export function checkManifests(objects) {
  const problems = [];
  const workloads = objects
    .filter(({ object }) => ['Deployment', 'Job'].includes(object.kind))
    .map(({ object }) => ({
      name: object.metadata.name,
      labels: object.spec.template.metadata?.labels ?? {},
      ports: object.spec.template.spec.containers.flatMap((container) => container.ports ?? []),
    }));
  const policies = objects.filter(({ object }) => object.kind === 'NetworkPolicy');

  for (const { file, object } of objects) {
    if (!object.apiVersion || !object.kind || !object.metadata?.name) problems.push(`${file}: an object without apiVersion, kind or metadata.name`);
    else if (object.kind !== 'Namespace' && object.metadata.namespace !== NAMESPACE) problems.push(`${file}: ${object.kind} ${object.metadata.name} is not in namespace ${NAMESPACE}`);
  }

  const defaultDeny = policies.find(
    ({ object }) =>
      Object.keys(object.spec.podSelector ?? {}).length === 0 &&
      ['Ingress', 'Egress'].every((type) => object.spec.policyTypes?.includes(type)) &&
      !object.spec.ingress &&
      !object.spec.egress,
  );
  if (!defaultDeny) problems.push('no NetworkPolicy denies all ingress and egress of every pod (podSelector {}, both policyTypes, no rules)');

  for (const workload of workloads) {
    const own = policies.filter(({ object }) => Object.keys(object.spec.podSelector?.matchLabels ?? {}).length > 0 && matches(object.spec.podSelector.matchLabels, workload.labels));
    if (own.length === 0) problems.push(`${workload.name}: no NetworkPolicy selects its pods`);
  }

  for (const { file, object } of policies) {
    const where = `${file}: NetworkPolicy ${object.metadata.name}`;
    const selected = workloads.filter((workload) => matches(object.spec.podSelector?.matchLabels, workload.labels));
    const selectedPorts = new Map(selected.flatMap((workload) => workload.ports.map((port) => [port.containerPort, port.name])));
    for (const rule of object.spec.ingress ?? []) {
      for (const { port } of rule.ports ?? []) {
        if (!selectedPorts.has(port)) problems.push(`${where}: admits port ${port}, which no pod it selects listens on`);
        if (selectedPorts.get(port) === 'metrics' && !(rule.from ?? []).every((peer) => sameLabels(peer.namespaceSelector?.matchLabels, MONITORING) && !peer.podSelector && !peer.ipBlock)) {
          problems.push(`${where}: the metrics port ${port} is admitted from outside the monitoring namespace`);
        }
      }
    }
    for (const rule of [...(object.spec.ingress ?? []).map((r) => r.from ?? []), ...(object.spec.egress ?? []).map((r) => r.to ?? [])]) {
      for (const peer of rule) {
        if (peer.podSelector && !peer.namespaceSelector && !workloads.some((workload) => matches(peer.podSelector.matchLabels, workload.labels))) {
          problems.push(`${where}: a rule names pods ${JSON.stringify(peer.podSelector.matchLabels)} that no workload has`);
        }
      }
    }
    const anywhere = (object.spec.egress ?? []).some((rule) => (rule.to ?? []).some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0') || !rule.to);
    if (anywhere && !object.metadata.name.endsWith('-providers')) problems.push(`${where}: egress to any address outside a *-providers policy`);
  }
  return problems;
}

function main() {
  const k8sDir = fileURLToPath(new URL('../../k8s', import.meta.url));
  const { objects, problems } = readManifests(k8sDir);
  const all = [...problems, ...checkManifests(objects)];
  for (const problem of all) console.error(problem);
  if (all.length > 0) {
    console.error(`k8s manifests: ${all.length} problem(s); see docs/deployment.md, Network policies`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
