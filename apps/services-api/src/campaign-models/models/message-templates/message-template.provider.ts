/**
 * The message-template provider as campaign models need it. One real
 * adapter (WhatsAppCloudMessageTemplateProvider) speaks the WhatsApp Business
 * Cloud API; tests run it against the local stub of @platform/testing.
 */

/** The connected channel a template belongs to. */
export interface TemplateAccount {
  /** WhatsApp Business Account id. */
  accountID: string;
  /** Where the channel's credentials live (docs/campaign-models.md). */
  credentialsRef: string;
}

/** A template in the provider's create shape (`POST /{WABA_ID}/message_templates`). */
export interface ProviderTemplate {
  name: string;
  language: string;
  category: string;
  parameter_format?: 'NAMED' | 'POSITIONAL';
  components: Record<string, unknown>[];
}

export type SubmissionOutcome =
  /** The provider holds the template (created now, or found from an earlier attempt). */
  | { kind: 'accepted'; externalID: string; providerStatus: string; raw: Record<string, unknown> }
  /** The provider refused the template itself: retrying would not change the answer. */
  | { kind: 'refused'; errorCode: number; errorMessage: string; raw: Record<string, unknown> }
  /** Down, timed out, throttled or not authorised: worth retrying later. */
  | { kind: 'unavailable'; reason: string };

/** The port, its own injection token; the WhatsApp Cloud adapter implements it. */
export abstract class MessageTemplateProvider {
  abstract submit(account: TemplateAccount, template: ProviderTemplate): Promise<SubmissionOutcome>;
}
