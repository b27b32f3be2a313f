import { AppException } from '@platform/errors';
import type { FastifyBodyParser, FastifyInstance } from 'fastify';

/**
 * Deepest nesting of objects and arrays a JSON body may have (the body itself
 * is level 1). Far above what any operation takes, low enough that nothing
 * downstream (validation, transformation, logging) recurses dangerously.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` holds objects or arrays nested more than `levels` deep. */
export function nestedDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestedDeeperThan(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) if (nestedDeeperThan((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}

/**
 * The JSON body parser of every app: Fastify's own (size limit, prototype
 * poisoning, malformed JSON, all answered as before), then a depth check.
 * The check walks the parsed value and stops at the first level past the
 * limit: it costs a visit of each object and array of the body (not of each
 * byte), a fraction of the parse itself. A body too short to open and close
 * more than `maxDepth` levels (most of this API's) is not walked at all.
 */
export function depthLimitedJsonParser(fastify: FastifyInstance, maxDepth = MAX_JSON_DEPTH): FastifyBodyParser<Buffer> {
  const { onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig;
  const parseJson = fastify.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error') as unknown as FastifyBodyParser<Buffer>;
  return (request, body, done) => {
    void parseJson(request, body, (error, parsed) => {
      if (error) return done(error, undefined);
      if (body.length > 2 * maxDepth && nestedDeeperThan(parsed, maxDepth)) {
        return done(AppException.validation([{ field: 'body', received: `JSON nested deeper than ${maxDepth} levels`, allowed: `JSON nested at most ${maxDepth} levels` }]), undefined);
      }
      done(null, parsed);
    });
  };
}
