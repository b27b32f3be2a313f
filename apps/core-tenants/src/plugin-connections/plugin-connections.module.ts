import { DynamicModule, Module } from '@nestjs/common';
import { measuredProvider, PlatformMetrics } from '@platform/observability';
import { CoreTenantsConfig } from '../config';
import { BillingProvider } from './billing/billing.provider';
import { BillingCancellationMetrics } from './billing/billing-cancellation-metrics';
import { BillingCancellationWorker } from './billing/billing-cancellation.worker';
import { BillingCancellationsRepository } from './billing/billing-cancellations.repository';
import { CancelDueSubscriptionItemUseCase } from './billing/cancel-due-subscription-item.use-case';
import { CANCELLATION_SCHEDULE } from './billing/cancellation-schedule';
import { StripeBillingProvider } from './billing/stripe-billing.provider';
import { DeletePluginConnectionUseCase, REMOVAL_CLAIM_LEASE_MS, removalClaimLeaseMs } from './delete-plugin-connection.use-case';
import { InstallIntentReconciler } from './install-intent.reconciler';
import { InstallIntentsRepository } from './install-intents.repository';
import { INSTALL_INTENT_LEASE_SECONDS, InstallPluginConnectionUseCase } from './install-plugin-connection.use-case';
import { InstallProvisioning } from './install-provisioning';
import { PluginConnectionInstallsRepository } from './plugin-connection-installs.repository';
import { PluginConnectionRemovalsRepository } from './plugin-connection-removals.repository';
import { PluginConnectionsRpcController } from './plugin-connections.rpc-controller';
import { ReconcileInstallIntentUseCase } from './reconcile-install-intent.use-case';
import { RestVmProvider } from './vms/rest-vm.provider';
import { VmProvider } from './vms/vm.provider';

@Module({})
export class PluginConnectionsModule {
  static forRoot(config: CoreTenantsConfig): DynamicModule {
    return {
      module: PluginConnectionsModule,
      controllers: [PluginConnectionsRpcController],
      providers: [
        {
          provide: BillingProvider,
          useFactory: (metrics: PlatformMetrics) =>
            measuredProvider(
              'billing',
              new StripeBillingProvider({ baseUrl: config.BILLING_API_URL, apiKey: config.BILLING_API_KEY, timeoutMs: config.BILLING_TIMEOUT_MS }),
              metrics,
              { operations: ['createSubscriptionItem', 'cancelSubscriptionItem'] },
            ),
          inject: [PlatformMetrics],
        },
        {
          provide: VmProvider,
          useFactory: (metrics: PlatformMetrics) =>
            measuredProvider(
              'vms',
              new RestVmProvider({ baseUrl: config.VM_PROVIDER_URL, token: config.VM_PROVIDER_TOKEN, timeoutMs: config.VM_PROVIDER_TIMEOUT_MS }),
              metrics,
              { operations: ['createVm', 'deleteVm'] },
            ),
          inject: [PlatformMetrics],
        },
        {
          provide: CANCELLATION_SCHEDULE,
          useValue: {
            pollMs: config.BILLING_CANCELLATION_POLL_MS,
            retryBaseMs: config.BILLING_CANCELLATION_RETRY_BASE_MS,
            retryMaxMs: config.BILLING_CANCELLATION_RETRY_MAX_MS,
          },
        },
        // An install is answered or timed out by then: its intent is then the reconciler's.
        { provide: INSTALL_INTENT_LEASE_SECONDS, useValue: Math.ceil(config.CORE_TENANTS_RPC_TIMEOUT_MS / 1000) },
        { provide: REMOVAL_CLAIM_LEASE_MS, useValue: removalClaimLeaseMs(config.VM_PROVIDER_TIMEOUT_MS) },
        BillingCancellationsRepository,
        CancelDueSubscriptionItemUseCase,
        BillingCancellationWorker,
        BillingCancellationMetrics,
        PluginConnectionInstallsRepository,
        PluginConnectionRemovalsRepository,
        InstallIntentsRepository,
        InstallProvisioning,
        ReconcileInstallIntentUseCase,
        InstallIntentReconciler,
        InstallPluginConnectionUseCase,
        DeletePluginConnectionUseCase,
      ],
    };
  }
}
