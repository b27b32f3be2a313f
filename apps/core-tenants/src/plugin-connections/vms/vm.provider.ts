/** The hosted-VM provider (docs/providers/vm-provider.md). */
export abstract class VmProvider {
  /** The idempotency key makes a retried call return the same VM instead of making a second one. */
  abstract createVm(input: { image: string; tenantID: string; pluginConnectionID: string; idempotencyKey: string }): Promise<string>;

  /** Deletes a VM; one already gone counts as deleted. */
  abstract deleteVm(vmID: string): Promise<void>;
}

export class VmProviderError extends Error {
  /** A definitive refusal (4xx other than 409 and 429): no VM was made. */
  readonly refused: boolean;

  constructor(message: string, options?: { cause?: unknown; refused?: boolean }) {
    super(message, options);
    this.name = 'VmProviderError';
    this.refused = options?.refused ?? false;
  }
}
