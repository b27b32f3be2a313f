import type { TemplateVariableDto } from './campaign-model-slots.dto';
import type { Slots } from './template-content';

/** A variable as the snippet shows it: its fallback, or a `<key>` placeholder to replace. */
const valueOf = (variable: TemplateVariableDto) => (variable.fallback ? variable.fallback : `<${variable.key}>`);

const textParameters = (variables: TemplateVariableDto[]) =>
  variables.map((variable) => ({ type: 'text', parameter_name: variable.key, text: valueOf(variable) }));

const MEDIA_PARAMETER: Record<string, Record<string, unknown>> = {
  image: { type: 'image', image: { link: '<image_url>' } },
  gif: { type: 'image', image: { link: '<gif_url>' } },
  video: { type: 'video', video: { link: '<video_url>' } },
  document: { type: 'document', document: { link: '<document_url>', filename: '<file_name>' } },
  location: { type: 'location', location: { latitude: '<latitude>', longitude: '<longitude>', name: '<name>', address: '<address>' } },
};

/**
 * campaignReqSnippet (operation 5): the JSON body of the provider's "send a
 * template" call (`POST /{version}/{phone-number-id}/messages`, docs/external-providers.md)
 * for this model, pretty-printed so a developer can paste it. Values the
 * sender must supply are `<...>` placeholders; variables with a fallback show it.
 */
export function campaignReqSnippetOf(model: { name: string; language: string; slots: Slots }): string {
  const { slots } = model;
  const components: Record<string, unknown>[] = [];
  const header = slots.header;
  if (header?.type === 'text' && header.variables?.length) components.push({ type: 'header', parameters: textParameters(header.variables) });
  if (header && header.type !== 'text' && MEDIA_PARAMETER[header.type]) components.push({ type: 'header', parameters: [MEDIA_PARAMETER[header.type]] });
  if (slots.body.variables?.length) components.push({ type: 'body', parameters: textParameters(slots.body.variables) });
  (slots.buttons ?? []).forEach((button, index) => {
    if (button.type === 'URL' && button.url?.includes('{{')) {
      components.push({ type: 'button', sub_type: 'url', index: String(index), parameters: [{ type: 'text', text: button.example ?? '<url_suffix>' }] });
    } else if (button.type === 'COPY_CODE') {
      components.push({ type: 'button', sub_type: 'copy_code', index: String(index), parameters: [{ type: 'coupon_code', coupon_code: button.example ?? '<coupon_code>' }] });
    } else if (button.type === 'OTP') {
      components.push({ type: 'button', sub_type: 'url', index: String(index), parameters: [{ type: 'text', text: '<one_time_code>' }] });
    }
  });
  const template: Record<string, unknown> = { name: model.name, language: { code: model.language } };
  if (components.length > 0) template.components = components;
  const body = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '<recipient_phone_number>', type: 'template', template };
  return JSON.stringify(body, null, 2);
}
