import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { AppException, FieldError, jsonTypeOf, renderReceived } from '@platform/errors';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, ValidationError } from 'class-validator';

/** `allowed` texts for class-validator's built-in constraints; custom validators carry theirs as message. */
const BUILT_IN_ALLOWED: Record<string, string> = {
  whitelistValidation: 'no such field',
  isString: 'string',
  isBoolean: 'boolean',
  isObject: 'object',
  isArray: 'array',
  isNumber: 'number',
  isInt: 'integer',
  isIso8601: 'ISO 8601 date-time',
  isDefined: 'required',
  nestedValidation: 'object',
  arrayMaxSize: 'array',
  arrayMinSize: 'array',
  unknownValue: 'a JSON object',
};

function allowedText(error: ValidationError): string {
  const [name, message] = Object.entries(error.constraints ?? {})[0] ?? ['', ''];
  return BUILT_IN_ALLOWED[name] ?? message;
}

function flatten(errors: ValidationError[], prefix: string, into: FieldError[]): FieldError[] {
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints && Object.keys(error.constraints).length > 0) {
      into.push({ field, received: renderReceived(error.value), allowed: allowedText(error) });
    }
    if (error.children?.length) flatten(error.children, field, into);
  }
  return into;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Per DTO class: whether it declares any rule. Classes and their decorators are fixed once loaded. */
const classesWithRules = new WeakMap<object, boolean>();

function hasValidationRules(metatype: unknown): metatype is new () => object {
  if (typeof metatype !== 'function') return false;
  let known = classesWithRules.get(metatype);
  if (known === undefined) {
    known = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false).length > 0;
    classesWithRules.set(metatype, known);
  }
  return known;
}

/**
 * Per DTO class: inputs known to pass its rules. Every rule is a pure
 * function of the values, so the verdict is fixed per class and input; most
 * requests repeat a few (no query at all, the same tenant id in the path), and
 * this spares them class-validator's walk. Only passes are kept: a refused
 * input is checked again, so its `fields` are built as always. Kept: an empty
 * object of any kind, and query and path parameters as sent (strings, short).
 */
const acceptedInputs = new WeakMap<object, Set<string>>();
/** Per class, the oldest goes first past this many. */
const MAX_ACCEPTED_INPUTS = 1_000;
const MAX_INPUT_KEY_LENGTH = 512;

function isEmptyObject(value: Record<string, unknown>): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** What identifies an input whose verdict may be kept, or undefined when it is not kept. */
function inputKeyOf(type: ArgumentMetadata['type'], source: Record<string, unknown>): string | undefined {
  if (isEmptyObject(source)) return '';
  if (type !== 'query' && type !== 'param') return undefined;
  const key = JSON.stringify(source);
  return key.length <= MAX_INPUT_KEY_LENGTH ? key : undefined;
}

function rememberAccepted(metatype: object, key: string): void {
  let accepted = acceptedInputs.get(metatype);
  if (!accepted) acceptedInputs.set(metatype, (accepted = new Set()));
  accepted.add(key);
  if (accepted.size > MAX_ACCEPTED_INPUTS) accepted.delete(accepted.values().next().value as string);
}

/**
 * The one validation pipe: params, query and body are checked against their
 * DTO classes; unknown body fields, bodies that are not JSON objects and every
 * failing rule become 400 1002 with `fields` (docs/http-conventions.md, Validation). Values
 * keep the type they were sent with: query values stay strings, so `received`
 * shows exactly what the client sent.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'custom' || !hasValidationRules(metadata.metatype)) return value;

    // A missing query or params object is empty; a missing or null body is not an object.
    const source = metadata.type === 'body' ? value : (value ?? {});
    if (!isPlainObject(source)) {
      // Its JSON type only: a body that is not an object may be anything, a password included.
      throw AppException.validation([{ field: 'body', received: jsonTypeOf(source), allowed: 'a JSON object' }]);
    }
    const instance = plainToInstance(metadata.metatype, source, { enableImplicitConversion: false });
    const inputKey = inputKeyOf(metadata.type, source);
    if (inputKey !== undefined && acceptedInputs.get(metadata.metatype)?.has(inputKey)) return instance;
    const errors = await validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: true },
    });
    if (errors.length > 0) throw AppException.validation(flatten(errors, '', []));
    if (inputKey !== undefined) rememberAccepted(metadata.metatype, inputKey);
    return instance;
  }
}
