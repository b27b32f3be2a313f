import { readFileSync } from 'node:fs';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Middleware } from 'openapi-fetch';

/**
 * Every answer the end-to-end tests receive through the typed clients is
 * checked against the committed OpenAPI document of its app: its status is
 * one the operation documents, the headers the document requires are there
 * (and those it describes hold what it says), and the body is of a documented
 * media type and matches its schema. A drift between the code and the
 * document fails the test that met it (docs/openapi.md).
 *
 * The schemas are checked by Ajv, which reads OpenAPI 3.0's `nullable`;
 * keywords that only document (`example`, `description`) are ignored.
 */
export type ContractApp = 'services-api' | 'plugins-helpdesk' | 'core-tenants';

interface Schema {
  type?: string;
  [keyword: string]: unknown;
}

interface DocumentedResponse {
  headers?: Record<string, { required?: boolean; schema?: Schema }>;
  content?: Record<string, { schema?: Schema }>;
}

interface ApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, DocumentedResponse> }>>;
}

/** What the check reads of an answer. */
export interface ReceivedAnswer {
  method: string;
  schemaPath: string;
  status: number;
  headers: Headers;
  body: string;
}

/** A JSON pointer's segment, as a URI fragment holds it. */
function pointerSegment(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

export class ResponseContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly documents: Partial<Record<ContractApp, ApiDocument>>) {
    addFormats(this.ajv);
    for (const [app, document] of Object.entries(documents)) this.ajv.addSchema(document as object, app);
  }

  /** The committed documents, docs/openapi/<app>.json (tests run from the repository's root). */
  static committed(): ResponseContract {
    const read = (app: ContractApp) => JSON.parse(readFileSync(`docs/openapi/${app}.json`, 'utf8')) as ApiDocument;
    return new ResponseContract({ 'services-api': read('services-api'), 'plugins-helpdesk': read('plugins-helpdesk'), 'core-tenants': read('core-tenants') });
  }

  /**
   * How the answer departs from the document; none when it keeps to it, or
   * when the document has no such operation (a route the test calls on purpose
   * outside the contract: the server's 404 1904 and 405 1905 are checked by
   * their own tests).
   */
  problemsOf(app: ContractApp, answer: ReceivedAnswer): string[] {
    const method = answer.method.toLowerCase();
    const operation = this.documents[app]?.paths[answer.schemaPath]?.[method];
    if (!operation) return [];
    const status = String(answer.status);
    const responses = operation.responses ?? {};
    const key = status in responses ? status : `${status[0]}XX` in responses ? `${status[0]}XX` : 'default' in responses ? 'default' : undefined;
    if (key === undefined) return [`status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    const responsePointer = ['paths', answer.schemaPath, method, 'responses', key].map(pointerSegment).join('/');
    return [...this.headerProblems(app, responsePointer, responses[key], answer.headers), ...this.bodyProblems(app, responsePointer, responses[key], answer)];
  }

  /** openapi-fetch middleware that fails the request whose answer departs from the document. */
  middleware(app: ContractApp): Middleware {
    return {
      onResponse: async ({ request, response, schemaPath }) => {
        const body = await response.clone().text();
        const problems = this.problemsOf(app, { method: request.method, schemaPath, status: response.status, headers: response.headers, body });
        if (problems.length > 0) {
          throw new Error(
            `${app}: ${request.method} ${schemaPath} answered ${response.status} outside docs/openapi/${app}.json:\n  ${problems.join('\n  ')}\nbody: ${body.slice(0, 600)}`,
          );
        }
      },
    };
  }

  private headerProblems(app: ContractApp, responsePointer: string, response: DocumentedResponse, headers: Headers): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is required and missing`);
        continue;
      }
      if (!header.schema) continue;
      const typed = header.schema.type === 'integer' || header.schema.type === 'number' ? Number(value) : value;
      const errors = this.validate(app, `${responsePointer}/headers/${pointerSegment(name)}/schema`, typed);
      if (errors) problems.push(`header ${name}: ${errors}`);
    }
    return problems;
  }

  private bodyProblems(app: ContractApp, responsePointer: string, response: DocumentedResponse, answer: ReceivedAnswer): string[] {
    const content = response.content ?? {};
    if (Object.keys(content).length === 0) return answer.body === '' ? [] : ['a body is sent where the document describes none'];
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (!(mediaType in content)) return [`media type "${mediaType}" is not documented (documented: ${Object.keys(content).join(', ')})`];
    if (!content[mediaType].schema) return [];
    let body: unknown = answer.body;
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      try {
        body = JSON.parse(answer.body);
      } catch {
        return ['the body is not JSON'];
      }
    }
    const errors = this.validate(app, `${responsePointer}/content/${pointerSegment(mediaType)}/schema`, body);
    return errors ? [`body: ${errors}`] : [];
  }

  /** The schema's complaints about the value, as one line; undefined when it matches. */
  private validate(app: ContractApp, pointer: string, value: unknown): string | undefined {
    const id = `${app}#/${pointer}`;
    let validate = this.validators.get(id);
    if (!validate) {
      validate = this.ajv.compile({ $ref: id });
      this.validators.set(id, validate);
    }
    if (validate(value)) return undefined;
    return this.ajv.errorsText(validate.errors, { dataVar: 'body' });
  }
}
