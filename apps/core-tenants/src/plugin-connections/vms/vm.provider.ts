/** The hosted-VM provider (docs/providers/vm-provider.md). */
export abstract class VmProvider {
  abstract createVm(input: { image: string; tenantID: string; pluginConnectionID: string }): Promise<string>;

  /** Deletes a VM; one already gone counts as deleted. */
  abstract deleteVm(vmId: string): Promise<void>;
}

export class VmProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VmProviderError';
  }
}
