/**
 * A transport message: its pattern (`domain.action`), the class its payload is
 * validated against on receipt, and the shape of its reply. Messages are
 * versioned by adding patterns, never by changing a payload in place.
 */
export interface MessageContract<Payload extends object, Reply> {
  readonly pattern: string;
  readonly payload: new () => Payload;
  /** Type-level only: lets the client infer the reply of `send`. */
  readonly reply?: Reply;
}

export function defineMessage<Payload extends object, Reply>(pattern: string, payload: new () => Payload): MessageContract<Payload, Reply> {
  return { pattern, payload };
}
