import { createHash } from 'node:crypto';
import { ReadTraceJson, TraceBehaviour, TraceListJson, TraceProviderStub } from '@platform/testing';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { Pool } from 'pg';

/**
 * The two demo processing-trace providers of the provider sandbox
 * (docs/processing-traces.md, demo providers): an intent classifier and a
 * CRM enrichment, each speaking docs/protocols/processing-traces.openapi.yaml.
 *
 * A real provider traces the messages it processed as they arrived; these
 * play that by reading the session's inbound text messages from the
 * platform's database (read-only) and deriving every trace from the message
 * (id, time, text), so the list and read calls always agree and a restart
 * changes nothing. Both trace every inbound text message, so any demo
 * session with one (the fixture's sessionID has) shows traces from both.
 */

export const DEMO_INTENT_URN = 'urn:plugin:demo-intent-classifier';
export const DEMO_CRM_URN = 'urn:plugin:demo-crm-enrichment';

interface MessageRow {
  id: string;
  created_at: Date;
  text: string;
}

/** How the CRM provider behaves (TRACE_SANDBOX_CRM_MODE): `slow` answers after 5 s (beyond the platform's time limit), `failing` answers 500. */
export type DemoProviderMode = 'normal' | 'slow' | 'failing';

/** A small deterministic number from a message id, so durations look varied but never change. */
function jitter(id: string, salt: string, max: number): number {
  return createHash('sha256').update(`${salt}:${id}`).digest().readUInt16BE(0) % max;
}

const at = (time: Date, offsetMs: number) => new Date(time.getTime() + offsetMs).toISOString();
const fingerprint = (message: MessageRow) => `sha256:${createHash('sha256').update(message.text).digest('hex').slice(0, 16)}`;

const INTENTS: [RegExp, string, string][] = [
  [/boleto|fatura|segunda via/i, 'segunda_via_boleto', 'Enviar a segunda via pelo atalho /boleto'],
  [/pedido|entrega|chegou/i, 'status_pedido', 'Consultar o rastreio do pedido'],
  [/cobran|indevid|estorno/i, 'contestacao_cobranca', 'Encaminhar ao time financeiro'],
  [/obrigad|valeu/i, 'agradecimento', 'Encerrar com o atalho /Obrigada'],
];

function intentOf(text: string): [string, string] {
  const found = INTENTS.find(([pattern]) => pattern.test(text));
  return found ? [found[1], found[2]] : ['duvida_geral', 'Responder com o atalho /bomdia'];
}

/** What one demo provider derives from a message. */
interface DemoTraceRules {
  prefix: string;
  offsetMs: number;
  steps(message: MessageRow, start: Date): { title: string; category: string; durationMs: number; subtitle?: string; highlight?: string; details?: object[]; metrics?: object[] }[];
  details(message: MessageRow): object[];
}

const INTENT_RULES: DemoTraceRules = {
  prefix: 'intent',
  offsetMs: 120,
  steps: (message) => {
    const [intent, suggestion] = intentOf(message.text);
    const confidence = (0.8 + jitter(message.id, 'confidence', 19) / 100).toFixed(2);
    return [
      { title: 'Mensagem normalizada', category: 'preprocessing', durationMs: 8 + jitter(message.id, 'norm', 10), details: [{ kind: 'text', label: 'Texto', value: message.text }] },
      {
        title: 'Intenção identificada',
        category: 'intention',
        durationMs: 140 + jitter(message.id, 'intent', 120),
        subtitle: intent,
        highlight: intent,
        details: [{ kind: 'text', label: 'Intenção', value: intent }],
        metrics: [{ label: 'confiança', value: confidence }, { label: 'modelo', value: 'intent-pt-br-v3' }],
      },
      { title: 'Resposta sugerida', category: 'suggestion', durationMs: 30 + jitter(message.id, 'suggest', 40), details: [{ kind: 'text', label: 'Sugestão', value: suggestion }] },
    ];
  },
  details: () => [{ kind: 'text', label: 'Modelo', value: 'intent-pt-br-v3' }],
};

const CRM_RULES: DemoTraceRules = {
  prefix: 'crm',
  offsetMs: 40,
  steps: (message) => [
    {
      title: 'Cliente localizado no CRM',
      category: 'lookup',
      durationMs: 60 + jitter(message.id, 'lookup', 80),
      details: [{ kind: 'text', label: 'Cliente', value: 'Maria Souza (cliente desde 2021)' }],
      metrics: [{ label: 'pedidos', value: String(2 + jitter(message.id, 'orders', 9)) }],
    },
    {
      title: 'Histórico de atendimento consultado',
      category: 'enrichment',
      durationMs: 90 + jitter(message.id, 'history', 150),
      details: [{ kind: 'text', label: 'Último contato', value: 'Pedido atrasado; reenvio confirmado.' }],
    },
  ],
  details: () => [{ kind: 'text', label: 'CRM', value: 'Acme CRM (sandbox)' }],
};

/** A demo provider's data: the session's inbound text messages, traced by its rules. */
class DemoTraces implements TraceBehaviour {
  constructor(
    private readonly pool: Pool,
    private readonly rules: DemoTraceRules,
  ) {}

  private async messages(tenantID: string, sessionID: string): Promise<MessageRow[]> {
    const { rows } = await this.pool.query<MessageRow>(
      `SELECT id, created_at, value #>> '{}' AS text FROM messages
        WHERE session_id = $2 AND tenant_id = $1 AND direction = 'inbound' AND key = 'text' AND jsonb_typeof(value) = 'string'
        ORDER BY created_at, id`,
      [tenantID, sessionID],
    );
    return rows;
  }

  private trace(message: MessageRow): ReadTraceJson {
    const start = new Date(message.created_at.getTime() + this.rules.offsetMs);
    let offset = 0;
    const steps = this.rules.steps(message, start).map((step, index) => {
      const startedAt = at(start, offset);
      offset += step.durationMs;
      return { stepID: `${this.rules.prefix}-${index + 1}`, status: 'succeeded', startedAt, details: [], metrics: [], ...step };
    });
    return {
      traceRef: `${this.rules.prefix}-${message.id}`,
      status: 'ready',
      processStatus: 'succeeded',
      startedAt: start.toISOString(),
      durationMs: offset,
      steps,
      details: this.rules.details(message),
    };
  }

  async list(tenantID: string, sessionID: string): Promise<TraceListJson> {
    const messages = await this.messages(tenantID, sessionID);
    return {
      sessionTraceRef: `${this.rules.prefix}-session-${sessionID}`,
      messages: messages.map((message) => {
        const trace = this.trace(message);
        return {
          messageID: message.id,
          messageFingerprint: fingerprint(message),
          traceRef: trace.traceRef,
          startedAt: trace.startedAt!,
          durationMs: trace.durationMs!,
          status: trace.processStatus!,
          stepCount: trace.steps!.length,
        };
      }),
    };
  }

  async read(tenantID: string, sessionID: string, traceRefs: string[]): Promise<ReadTraceJson[]> {
    const traces = new Map((await this.messages(tenantID, sessionID)).map((message) => [`${this.rules.prefix}-${message.id}`, message]));
    return traceRefs.map((traceRef) => {
      const message = traces.get(traceRef);
      return message ? this.trace(message) : { traceRef, status: 'not_found' };
    });
  }
}

export interface DemoTraceProviderOptions {
  kind: 'intent' | 'crm';
  port: number;
  /** Path prefix of the endpoint URL (the plugin's trace_endpoint_url is http://127.0.0.1:port + prefix). */
  prefix: string;
  databaseUrl: string;
  /** core-tenants' JWKS: when given, every call's credential is verified (aud = the plugin's URN), as a real provider should. */
  jwksUrl?: string;
  mode?: DemoProviderMode;
}

export async function startDemoTraceProvider(options: DemoTraceProviderOptions): Promise<{ stop(): Promise<void> }> {
  const pool = new Pool({ connectionString: options.databaseUrl, max: 2, application_name: `sandbox-${options.kind}-traces` });
  // An idle connection the server ends (the embedded PostgreSQL stopping on Ctrl+C) is an 'error' event of the
  // pool; unheard, it would end the start before it cleans up. The pool drops that client and opens another.
  pool.on('error', () => undefined);
  const stub = new TraceProviderStub(new DemoTraces(pool, options.kind === 'intent' ? INTENT_RULES : CRM_RULES), options.prefix);
  const audience = options.kind === 'intent' ? DEMO_INTENT_URN : DEMO_CRM_URN;
  if (options.jwksUrl) {
    const jwks = createRemoteJWKSet(new URL(options.jwksUrl));
    stub.verify = async (authorization, call) => {
      const { payload } = await jwtVerify((authorization ?? '').replace(/^Bearer /, ''), jwks, { audience, typ: 'trace-provider+jwt', algorithms: ['EdDSA'] });
      if (payload.tenantID !== call.tenantID || payload.sessionID !== call.sessionID) throw new Error('credential names another session');
    };
  }
  if (options.mode === 'slow') stub.latencyMs = 5_000;
  if (options.mode === 'failing') stub.fault = 'status500';
  await stub.start(options.port);
  return {
    async stop() {
      await stub.stop();
      await pool.end();
    },
  };
}
