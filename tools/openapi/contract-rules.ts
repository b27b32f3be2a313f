/**
 * Rules every generated OpenAPI document keeps, checked by `npm run openapi`
 * and `npm run openapi:check` before anything is written or passed.
 */

/** The parts of an OpenAPI document these rules read. */
export interface DescribedApi {
  info: { version: string };
  paths: Record<string, object>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** A verb then words, as `listCampaignModels`: what generated clients name their functions after. */
const CAMEL_CASE = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;
/** Nest's default when `@ApiOperation` names none: `<Controller>_<method>`. */
const NEST_DEFAULT = /^[A-Za-z0-9]+Controller_[A-Za-z0-9]+$/;

/**
 * Every operation has an explicit camelCase `operationId`, and an id names one
 * operation: the same id in two documents must be the same method and path
 * (the health probes every app serves), never two different operations.
 */
export function operationIdProblems(documents: Record<string, DescribedApi>): string[] {
  const problems: string[] = [];
  const seen = new Map<string, { app: string; route: string }>();
  for (const [app, document] of Object.entries(documents)) {
    const idsInApp = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!HTTP_METHODS.has(method)) continue;
        const route = `${method.toUpperCase()} ${path}`;
        const id = (operation as { operationId?: string }).operationId;
        if (id === undefined || NEST_DEFAULT.test(id)) {
          problems.push(`${app}: ${route} has no explicit operationId (set one in its @ApiOperation)`);
          continue;
        }
        if (!CAMEL_CASE.test(id)) problems.push(`${app}: ${route}: operationId "${id}" is not camelCase (verbNoun)`);
        if (idsInApp.has(id)) {
          problems.push(`${app}: operationId "${id}" names two operations`);
          continue;
        }
        idsInApp.add(id);
        const earlier = seen.get(id);
        if (earlier && earlier.route !== route) {
          problems.push(`operationId "${id}" names ${earlier.route} in ${earlier.app} and ${route} in ${app}`);
        }
        if (!earlier) seen.set(id, { app, route });
      }
    }
  }
  return problems;
}

/** Every document, and each package that publishes the API (its `version`), says the same API version. */
export function versionProblems(apiVersion: string, documents: Record<string, DescribedApi>, packages: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  for (const [app, document] of Object.entries(documents)) {
    if (document.info.version !== apiVersion) problems.push(`${app}: info.version ${document.info.version} is not the API version ${apiVersion}`);
  }
  for (const [file, version] of Object.entries(packages)) {
    if (version !== apiVersion) problems.push(`${file}: version ${String(version)} is not the API version ${apiVersion} (API_VERSION, libs/http/common)`);
  }
  return problems;
}
