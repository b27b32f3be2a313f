import FindMyWay from 'find-my-way';

type PathRouter = ReturnType<typeof FindMyWay>;

/**
 * The methods every route path answers, looked up by a concrete URL: what
 * tells "no route on this path" (404) from "no route for this method on this
 * path" (405, with `Allow`).
 *
 * It is a second instance of Fastify's own router (find-my-way), fed the same
 * routes with the same options, with every path registered under one method:
 * so it matches a path exactly as Fastify does (parameters, wildcards, length
 * limit), and it is consulted only when Fastify found no route, never on the
 * way of a request that has one.
 */
export class PathMethods {
  private readonly router: PathRouter;
  private readonly methodsByPath = new Map<string, Set<string>>();

  constructor(routerOptions: { maxParamLength: number }) {
    this.router = FindMyWay({ maxParamLength: routerOptions.maxParamLength });
  }

  add(methods: string | string[], path: string): void {
    let known = this.methodsByPath.get(path);
    if (!known) {
      known = new Set();
      this.methodsByPath.set(path, known);
      this.router.on('GET', path, () => undefined, known);
    }
    for (const method of Array.isArray(methods) ? methods : [methods]) known.add(method.toUpperCase());
  }

  /** The methods routes answer on the path of `url` (query string ignored), sorted; none when no route matches it. */
  allowedAt(url: string): string[] {
    const found = this.router.find('GET', url);
    return found ? [...(found.store as Set<string>)].sort() : [];
  }
}
