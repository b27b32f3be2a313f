import type { CampaignModelSlotsDto, TemplateVariableDto } from './campaign-model-slots.dto';
import type { ProviderTemplate } from './message-templates/message-template.provider';

/** Slots as stored (the validated body, as plain JSON). */
export type Slots = Pick<CampaignModelSlotsDto, 'body' | 'buttons' | 'footer' | 'header'>;

export interface ModelVariable {
  key: string;
  fallback: string;
  required: boolean;
  type: string;
}

function variablesOf(slots: Slots): TemplateVariableDto[] {
  return [...(slots.header?.variables ?? []), ...(slots.body.variables ?? [])];
}

/**
 * modelVariables: every variable of the header and body, once per key. A
 * variable without a fallback is required at send time.
 */
export function modelVariablesOf(slots: Slots): ModelVariable[] {
  const byKey = new Map<string, ModelVariable>();
  for (const variable of variablesOf(slots)) {
    if (byKey.has(variable.key)) continue;
    const fallback = variable.fallback ?? '';
    byKey.set(variable.key, { key: variable.key, fallback, required: fallback === '', type: variable.type ?? 'text' });
  }
  return [...byKey.values()];
}

/** The example the provider's reviewers see for a variable. */
const exampleOf = (variable: TemplateVariableDto) => (variable.fallback ? variable.fallback : variable.key);

const namedExamples = (variables: TemplateVariableDto[]) => variables.map((variable) => ({ param_name: variable.key, example: exampleOf(variable) }));

function headerComponent(header: NonNullable<Slots['header']>): Record<string, unknown> {
  if (header.type === 'text') {
    const component: Record<string, unknown> = { type: 'HEADER', format: 'TEXT', text: header.text ?? '' };
    if (header.variables?.length) component.example = { header_text_named_params: namedExamples(header.variables) };
    return component;
  }
  const format = header.type.toUpperCase();
  if (format === 'LOCATION') return { type: 'HEADER', format };
  // Media headers need a sample handle (from the provider's upload API) or a sample URL.
  const handle = typeof header.content?.handle === 'string' ? header.content.handle : header.preview;
  return handle ? { type: 'HEADER', format, example: { header_handle: [handle] } } : { type: 'HEADER', format };
}

function buttonComponent(button: NonNullable<Slots['buttons']>[number]): Record<string, unknown> {
  switch (button.type) {
    case 'URL':
      return { type: 'URL', text: button.text, url: button.url, ...(button.example ? { example: [button.example] } : {}) };
    case 'PHONE_NUMBER':
      return { type: 'PHONE_NUMBER', text: button.text, phone_number: button.phoneNumber };
    case 'COPY_CODE':
      return { type: 'COPY_CODE', example: button.example };
    case 'OTP':
      return { type: 'OTP', otp_type: button.otpType ?? 'COPY_CODE', ...(button.text ? { text: button.text } : {}) };
    default:
      return { type: button.type, text: button.text };
  }
}

/** The template in the provider's create shape. */
export function providerTemplateOf(model: { name: string; language: string; type: string; slots: Slots }): ProviderTemplate {
  const { slots } = model;
  const components: Record<string, unknown>[] = [];
  if (slots.header) components.push(headerComponent(slots.header));
  const body: Record<string, unknown> = { type: 'BODY', text: slots.body.text };
  if (slots.body.variables?.length) body.example = { body_text_named_params: namedExamples(slots.body.variables) };
  components.push(body);
  if (slots.footer) components.push({ type: 'FOOTER', text: slots.footer.text });
  if (slots.buttons?.length) components.push({ type: 'BUTTONS', buttons: slots.buttons.map(buttonComponent) });
  const template: ProviderTemplate = { name: model.name, language: model.language, category: model.type, components };
  if (variablesOf(slots).length > 0) template.parameter_format = 'NAMED';
  return template;
}
