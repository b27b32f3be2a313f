import openApiDiff from 'openapi-diff';

/** A breaking difference between the released document and the current one, as a reader needs it. */
export interface BreakingChange {
  code: string;
  where: string;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}

/** The parts of a document the comparison reads besides what openapi-diff reads. */
interface VersionedDocument {
  info: { version: string };
  paths?: Record<string, Record<string, { operationId?: string; parameters?: Parameter[] }>>;
}

/**
 * The differences between the released document of an app and its current
 * one that break a client written against the released one: an operation or
 * a documented status removed, a request accepting less, a response holding
 * more or other than before, a required response header removed... (openapi-diff's
 * classification, which compares the request and response bodies as JSON
 * schemas: docs/openapi.md).
 */
export async function breakingChanges(released: VersionedDocument, current: VersionedDocument): Promise<BreakingChange[]> {
  const outcome = await openApiDiff.diffSpecs({
    sourceSpec: { content: JSON.stringify(released), location: 'released', format: 'openapi3' },
    destinationSpec: { content: JSON.stringify(current), location: 'current', format: 'openapi3' },
  });
  const classified = outcome.breakingDifferencesFound
    ? outcome.breakingDifferences.map((difference) => ({
        code: difference.code,
        where: [...difference.sourceSpecEntityDetails, ...difference.destinationSpecEntityDetails].map((detail) => detail.location).join(' -> '),
      }))
    : [];
  return [...classified, ...operationChanges(released, current)];
}

/**
 * What openapi-diff does not classify (it leaves parameters and operationIds
 * out): an operation still there under another operationId (generated
 * clients name their functions after it), and a parameter that is newly
 * required (a request valid before is refused).
 */
function operationChanges(released: VersionedDocument, current: VersionedDocument): BreakingChange[] {
  const changes: BreakingChange[] = [];
  for (const [path, item] of Object.entries(released.paths ?? {})) {
    for (const [method, before] of Object.entries(item)) {
      const after = current.paths?.[path]?.[method];
      if (!after || typeof before !== 'object' || !before.operationId) continue;
      const where = `paths.${path}.${method}`;
      if (after.operationId !== before.operationId) changes.push({ code: 'operation.id.change', where: `${where}: ${before.operationId} -> ${String(after.operationId)}` });
      const requiredBefore = new Set((before.parameters ?? []).filter((parameter) => parameter.required).map((parameter) => `${parameter.in} ${parameter.name}`));
      for (const parameter of after.parameters ?? []) {
        const key = `${parameter.in} ${parameter.name}`;
        if (parameter.required && !requiredBefore.has(key)) changes.push({ code: 'request.parameter.required.add', where: `${where}: ${key}` });
      }
    }
  }
  return changes;
}

export function majorOf(version: string): number {
  const major = /^(\d+)\.\d+\.\d+/.exec(version);
  if (!major) throw new Error(`"${version}" is not a semantic version`);
  return Number(major[1]);
}

/**
 * What stops the current document from shipping: its breaking changes, unless
 * its major version is above the released one's (the release that makes them).
 */
export async function unreleasableChanges(released: VersionedDocument, current: VersionedDocument): Promise<BreakingChange[]> {
  if (majorOf(current.info.version) > majorOf(released.info.version)) return [];
  return breakingChanges(released, current);
}
