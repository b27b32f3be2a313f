export { signWebhookBody, WhatsAppTemplateStub } from './whatsapp-template-stub';
export type { StubRefusal, StubRequest, StubTemplate, WhatsAppStubMode } from './whatsapp-template-stub';
