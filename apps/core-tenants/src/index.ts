/** What other projects (the end-to-end suite, tools) may use of core-tenants. */
export { createCoreTenantsApp, describeCoreTenantsApi } from './bootstrap';
export { CoreTenantsConfig } from './config';
export { issueOperatorToken } from './signing/issue-token';
export { StripeBillingProvider } from './plugin-connections/billing/stripe-billing.provider';
export { RestVmProvider } from './plugin-connections/vms/rest-vm.provider';
export { CreateInvitationUseCase } from './operators/create-invitation.use-case';
export { RegisterOperatorUseCase } from './operators/register-operator.use-case';
