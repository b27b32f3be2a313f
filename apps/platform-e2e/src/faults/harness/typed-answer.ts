/** What a typed-client call resolves to (openapi-fetch): the parsed success or error body, and the response. */
export interface TypedAnswer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** An answer's status and its body, whether the success (`data`) or the envelope (`error`), for one assertion on both. */
export function statusAndBody({ data, error, response }: TypedAnswer): { status: number; body: any } {
  return { status: response.status, body: data ?? error };
}
