// Checks the Kubernetes manifests without a cluster, once per overlay
// (k8s/overlays/<environment>, each over k8s/base):
//
// 1. The overlay builds. With a kustomize (`kustomize` or `kubectl`, whose
//    `kubectl kustomize` is the same code) on PATH, it is rendered and the
//    checks below read kustomize's output. Either way, and as the whole check
//    where no kustomize can be found, every kustomization is walked here: each
//    file or directory it lists exists, each patch (`patches`, by its target
//    or by the kind and name it carries) matches a resource, each `images`
//    entry names an image some container runs, each `replicas` entry a
//    Deployment, each `replacements` source and target a resource. The
//    objects then get the overlay's namespace and image tags, which is all of
//    kustomize the checks below depend on (the patches only touch replicas,
//    resources and configuration).
// 2. Every object names its kind and lives in the overlay's namespace, and
//    every container runs a tagged image (a release, never `latest`).
// 3. The NetworkPolicies say what docs/deployment.md (Network policies) says:
//    - a default deny of both directions for every pod of the namespace;
//    - every Deployment and Job selected by a policy of its own;
//    - every port a policy admits is a port of the pods it selects, and every
//      pod selector of a rule matches the pods of some workload (no typo that
//      silently admits nothing);
//    - a metrics port (the container port named `metrics`) admitted from the
//      monitoring namespace only;
//    - egress to any address (0.0.0.0/0) only in the `*-providers` policies,
//      the one part ops fill in.
// Fails (exit 1) naming each problem.
//
//   node tools/lint/k8s-manifests.mjs            # KUSTOMIZE=none: the walk only
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const MONITORING = { 'kubernetes.io/metadata.name': 'monitoring' };
const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const CONTAINER_LISTS = ['initContainers', 'containers'];

function parseFile(path, problems, where) {
  const objects = [];
  for (const document of parseAllDocuments(readFileSync(path, 'utf8'))) {
    if (document.errors.length > 0) problems.push(`${where}: ${document.errors.map((error) => error.message).join('; ')}`);
    const object = document.toJS();
    if (object) objects.push(object);
  }
  return objects;
}

const podSpecOf = (object) => object.spec?.jobTemplate?.spec?.template?.spec ?? object.spec?.template?.spec;
const containersOf = (object) => CONTAINER_LISTS.flatMap((list) => podSpecOf(object)?.[list] ?? []);
/** `registry/name:tag` or `registry:5000/name@sha256:...` split into its name and what follows it. */
function splitImage(image) {
  const at = image.indexOf('@');
  if (at >= 0) return { name: image.slice(0, at), tag: undefined, digest: image.slice(at + 1) };
  const colon = image.lastIndexOf(':');
  return colon > image.lastIndexOf('/') ? { name: image.slice(0, colon), tag: image.slice(colon + 1) } : { name: image, tag: undefined };
}
const matches = (selector, labels) => Object.entries(selector ?? {}).every(([key, value]) => labels[key] === value);
const sameLabels = (a, b) => JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort());
const nameMatches = (pattern, name) => pattern === undefined || new RegExp(`^(?:${pattern})$`).test(name);
/** Whether a patch target or replacement selector ({kind, name, ...}) picks the object. */
const selects = (target, object) =>
  (target.kind === undefined || target.kind === object.kind) &&
  nameMatches(target.name, object.metadata?.name ?? '') &&
  (target.labelSelector === undefined ||
    target.labelSelector.split(',').every((term) => {
      const [key, value] = term.split('=');
      return object.metadata?.labels?.[key.trim()] === value?.trim();
    }));

/**
 * Walks a kustomization and what it lists, without kustomize: the objects it
 * brings (with the file each came from), with its namespace and image tags
 * applied, and every reference that does not resolve.
 */
export function walkKustomization(dir, k8sRoot = dir) {
  const problems = [];
  const where = relative(k8sRoot, dir) || '.';
  const file = KUSTOMIZATION_FILES.map((name) => join(dir, name)).find((path) => existsSync(path));
  if (!file) return { objects: [], problems: [`${where}: no kustomization.yaml`] };
  const kustomization = parseFile(file, problems, `${where}/kustomization.yaml`)[0] ?? {};
  let objects = [];
  for (const entry of kustomization.resources ?? []) {
    const path = join(dir, entry);
    if (!existsSync(path)) problems.push(`${where}/kustomization.yaml: resource ${entry} does not exist`);
    else if (statSync(path).isDirectory()) {
      const inner = walkKustomization(path, k8sRoot);
      objects.push(...inner.objects);
      problems.push(...inner.problems);
    } else objects.push(...parseFile(path, problems, relative(k8sRoot, path)).map((object) => ({ file: relative(k8sRoot, path), object })));
  }
  const find = (target) => objects.filter(({ object }) => selects(target, object));

  for (const patch of kustomization.patches ?? []) {
    if (patch.path && !existsSync(join(dir, patch.path))) {
      problems.push(`${where}/kustomization.yaml: patch ${patch.path} does not exist`);
      continue;
    }
    const body = patch.path ? parseFile(join(dir, patch.path), problems, `${where}/${patch.path}`)[0] : parseAllDocuments(patch.patch ?? '')[0]?.toJS();
    const target = patch.target ?? (body && !Array.isArray(body) ? { kind: body.kind, name: body.metadata?.name } : undefined);
    const label = patch.path ?? JSON.stringify(patch.target);
    if (!target) problems.push(`${where}/kustomization.yaml: patch ${label} has no target, and names no kind and name`);
    else if (find(target).length === 0) problems.push(`${where}/kustomization.yaml: patch ${label} matches no resource`);
  }
  for (const { name } of kustomization.replicas ?? []) {
    if (!objects.some(({ object }) => ['Deployment', 'StatefulSet'].includes(object.kind) && object.metadata.name === name)) {
      problems.push(`${where}/kustomization.yaml: replicas of ${name}, which no Deployment is`);
    }
  }
  for (const { source, targets } of kustomization.replacements ?? []) {
    for (const [role, selector] of [['source', source], ...(targets ?? []).map((target) => ['target', target.select])]) {
      if (find(selector ?? {}).length === 0) problems.push(`${where}/kustomization.yaml: replacement ${role} ${JSON.stringify(selector)} matches no resource`);
    }
  }

  const images = kustomization.images ?? [];
  for (const image of images) {
    if (!objects.some(({ object }) => containersOf(object).some((container) => splitImage(container.image ?? '').name === image.name))) {
      problems.push(`${where}/kustomization.yaml: image ${image.name}, which no container runs`);
    }
  }
  objects = objects.map(({ file, object }) => {
    const copy = structuredClone(object);
    if (kustomization.namespace && copy.kind !== 'Namespace' && copy.metadata) copy.metadata.namespace = kustomization.namespace;
    if (kustomization.namespace && copy.kind === 'Namespace' && copy.metadata) copy.metadata.name = kustomization.namespace;
    for (const container of containersOf(copy)) {
      const { name, tag } = splitImage(container.image ?? '');
      const image = images.find((entry) => entry.name === name);
      if (image) container.image = `${image.newName ?? name}${image.digest ? `@${image.digest}` : `:${image.newTag ?? tag}`}`;
    }
    return { file, object: copy };
  });
  return { objects, problems, namespace: kustomization.namespace };
}

/** The kustomize to render with: $KUSTOMIZE (`none`: do not render), else `kustomize` or `kubectl` on PATH. */
export function findKustomize(env = process.env) {
  if (env.KUSTOMIZE === 'none') return undefined;
  const onPath = (name) => (env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));
  if (env.KUSTOMIZE) return { command: env.KUSTOMIZE, args: ['build'] };
  if (onPath('kustomize')) return { command: 'kustomize', args: ['build'] };
  if (onPath('kubectl')) return { command: 'kubectl', args: ['kustomize'] };
  return undefined;
}

/** The overlay as kustomize renders it; `problems` holds kustomize's error when it refuses. */
export function renderOverlay(overlayDir, kustomize, label) {
  try {
    const output = execFileSync(kustomize.command, [...kustomize.args, overlayDir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
    const problems = [];
    return { objects: parseAllDocuments(output).flatMap((document) => (document.toJS() ? [{ file: label, object: document.toJS() }] : [])), problems };
  } catch (error) {
    return { objects: [], problems: [`${label}: ${kustomize.command} ${kustomize.args.join(' ')} failed: ${(error.stderr || error.message).trim()}`] };
  }
}

/** Every overlay: its directory and name (k8s/overlays/<name>). */
export function overlaysOf(k8sDir) {
  const root = join(k8sDir, 'overlays');
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ name: entry.name, dir: join(root, entry.name) }));
}

/**
 * One overlay's objects and the problems of its references: kustomize's
 * rendering when one is given, else the walk's objects.
 */
export function readOverlay(k8sDir, overlayDir, kustomize) {
  const walked = walkKustomization(overlayDir, k8sDir);
  if (!kustomize) return walked;
  const rendered = renderOverlay(overlayDir, kustomize, relative(k8sDir, overlayDir));
  return { objects: rendered.objects, problems: [...walked.problems, ...rendered.problems], namespace: walked.namespace };
}

/** Problems of a set of objects (`{file, object}`) meant for `namespace`, an empty list when there are none. */
export function checkManifests(objects, namespace) {
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
    else if (object.kind !== 'Namespace' && object.metadata.namespace !== namespace) problems.push(`${file}: ${object.kind} ${object.metadata.name} is not in namespace ${namespace}`);
    for (const container of containersOf(object)) {
      const { tag, digest } = splitImage(container.image ?? '');
      if (!digest && (!tag || tag === 'latest')) problems.push(`${file}: ${object.kind} ${object.metadata?.name} runs ${container.image || 'no image'}, without a release tag`);
    }
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

/** Every overlay's problems, each prefixed with the overlay's name. */
export function lintOverlays(k8sDir, kustomize = findKustomize()) {
  return overlaysOf(k8sDir).flatMap(({ name, dir }) => {
    const { objects, problems, namespace } = readOverlay(k8sDir, dir, kustomize);
    const all = [...problems, ...(objects.length > 0 ? checkManifests(objects, namespace) : [])];
    return all.map((problem) => `${name}: ${problem}`);
  });
}

function main() {
  const k8sDir = fileURLToPath(new URL('../../k8s', import.meta.url));
  const kustomize = findKustomize();
  if (!kustomize) console.error('k8s manifests: no kustomize to render with; checking the kustomizations by walking them');
  const all = lintOverlays(k8sDir, kustomize);
  for (const problem of all) console.error(problem);
  if (all.length > 0) {
    console.error(`k8s manifests: ${all.length} problem(s); see docs/deployment.md, Kubernetes overlays and Network policies`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
