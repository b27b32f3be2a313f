export { ConversationFixtures } from './conversation-fixtures';
export type { MessageFixtureOptions, NotificationFixtureOptions, SessionFixtureOptions, ShortcutFixtureOptions } from './conversation-fixtures';
export { CampaignFixtures } from './campaign-fixtures';
export type { MessagingChannelFixture } from './campaign-fixtures';
export { withTableMissing } from './faults';
export { FixtureBuilder } from './fixtures';
export { WebhookFixtures, webhookSecret } from './webhook-fixtures';
export type { SealSecret, WebhookEndpointFixture, WebhookEndpointOptions } from './webhook-fixtures';
export type { OperatorFixture, PluginConnectionFixture, PluginFixture, Queryable } from './fixtures';
export { decodeBody, encodeRequest, request, singleError } from './http';
export { rawRequestText, requestRaw, sendRaw } from './raw-http';
export type { RawRequestOptions, RawResponse } from './raw-http';
export type { JsonResponse, RequestOptions } from './http';
export { generateTestSigningKey, signOperatorToken, unsignedToken } from './signing-keys';
export type { TestSigningKey, TokenOverrides } from './signing-keys';
export { adminDatabaseUrl, clusterSeeds, createTestDatabase, createTestDataSource, createTestRedis, insertTenant, POOLER_URL_VARIABLE, prepareTemplateDatabase, resetTestRedis, startTestPooler, TEST_REDIS_CLUSTER_NODES, TEST_REDIS_SPARE_URL, TEST_REDIS_URL, testRedisEnv, testRedisNodes, testRedisSubscribers } from '@platform/test-support';
export type { TestDatabase, TestPooler, TestRedis } from '@platform/test-support';
export { freePort } from './free-port';
export { provideTestServices } from './test-services';
export { BillingStub } from './stubs/billing-stub';
export { StubServer } from './stubs/stub-server';
export type { HeldRequests, RecordedCall, StubRoute } from './stubs/stub-server';
export { VmStub } from './stubs/vm-stub';
export { CUSTOM_HOSTNAME_STAGES, CustomHostnamesStub, HAPPY_PATH, nextStage } from './stubs/cloudflare';
export type { CustomHostnameOperation, CustomHostnameStage, CustomHostnamesStubOptions, FailureMode, HeldRequest, StageState, StubCall } from './stubs/cloudflare';
export { startDnsStub } from './stubs/dns/dns-stub';
export type { DnsStub, DnsZoneEntry } from './stubs/dns/dns-stub';
export { decodeEncodedWords, parseMail } from './stubs/smtp/mime';
export type { ParsedMail } from './stubs/smtp/mime';
export { startSmtpStub } from './stubs/smtp/smtp-stub';
export type { ReceivedMail, SmtpStub } from './stubs/smtp/smtp-stub';
export { signWebhookBody, WhatsAppTemplateStub } from './stubs/whatsapp';
export type { StubRefusal, StubRequest, StubTemplate, WhatsAppStubMode } from './stubs/whatsapp';
export { ScriptedTraces, TraceProviderStub } from './stubs/trace-provider/trace-provider-stub';
export type {
  ListedTraceJson,
  ReadTraceJson,
  ScriptedTrace,
  TraceBehaviour,
  TraceListJson,
  TraceProviderCall,
  TraceProviderFault,
} from './stubs/trace-provider/trace-provider-stub';
export { describeRequest, formatSummary, hostileRequests, judge, prepareHostileTargets, runHostileCampaign, TARGET_OPERATIONS } from './hostile';
export type { AppRole, HostileCampaignOptions, HostileRequest, HostileSummary, HostileTargets, TargetOperation, Violation, ViolationKind } from './hostile';
export { RecordingAuditTrail } from './recording-audit-trail';
export { RecordingWebhookEvents } from './recording-webhook-events';
export { fake, FakeClock, FakeTenantAccess, transactionOn } from './doubles';
export { OUT_OF_REACH_RATE_LIMITS } from './load-budgets';
export { WebhookEventFixtures } from './webhook-event-fixtures';
export type { RecordedWebhookEvent } from './webhook-event-fixtures';
