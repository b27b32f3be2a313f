/**
 * Time and due work: the `Clock` every rule reads the time from, and
 * `DueWorkLoop`, the loop of the apps' outbox workers. Its own small library
 * so that what needs only these (idempotency, the test doubles) does not
 * depend on app-foundation, which wires the whole app.
 */
export { Clock } from './clock';
export { DueWorkLoop } from './due-work-loop';
