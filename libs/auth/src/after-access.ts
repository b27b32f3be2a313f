import { AsyncLocalStorage } from 'node:async_hooks';
import { recordTenantAccessGranted } from '@platform/observability';

/**
 * Work a request must do once its access check has passed and before its
 * action runs: claiming an idempotency key (libs/idempotency). Running it from
 * the access check keeps the check order of every endpoint (authentication,
 * validation, access) in front of it, whether the check sits in a controller
 * or in the first step of a use case, so nothing it answers (a replay, a key
 * in use) reaches a caller who would not pass the check.
 */
export type AfterAccess = () => Promise<void>;

interface PendingWork {
  run?: AfterAccess;
  /** Access checks made of several steps hold the work until their last step passed. */
  held: number;
}

const pendingWork = new AsyncLocalStorage<PendingWork>();

/** Runs `action` (a request's handler) with `work` to be done by the first access check it passes. */
export function runWithAfterAccess<T>(work: AfterAccess, action: () => Promise<T>): Promise<T> {
  return pendingWork.run({ run: work, held: 0 }, action);
}

/**
 * Called by an access check once it has passed (its last step): records the
 * grant on the request (the request budgets read it), and runs the request's
 * pending work, once. Undefined when there is none, so a check that has nothing to
 * wait for does not await.
 */
export function accessGranted(): Promise<void> | undefined {
  const pending = pendingWork.getStore();
  if (pending && pending.held > 0) return undefined;
  recordTenantAccessGranted();
  if (!pending?.run) return undefined;
  const work = pending.run;
  pending.run = undefined;
  return work();
}

/**
 * Runs one step of an access check that has more steps after it (e.g. the
 * tenant membership check before the helpdesk connection check): the pending
 * work waits for the `accessGranted()` of the last step.
 */
export async function withAccessStillChecked<T>(step: () => Promise<T>): Promise<T> {
  const pending = pendingWork.getStore();
  if (!pending) return step();
  pending.held += 1;
  try {
    return await step();
  } finally {
    pending.held -= 1;
  }
}
