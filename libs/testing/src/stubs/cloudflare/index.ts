export { CUSTOM_HOSTNAME_STAGES, HAPPY_PATH, nextStage } from './custom-hostname-stages';
export type { CustomHostnameStage, StageState } from './custom-hostname-stages';
export { CustomHostnamesStub } from './custom-hostnames-stub';
export type { CustomHostnameOperation, CustomHostnamesStubOptions, FailureMode, HeldRequest, StubCall } from './custom-hostnames-stub';
