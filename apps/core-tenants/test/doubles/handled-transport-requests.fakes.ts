import { fake } from '@platform/testing-doubles';
import type { HandledTransportRequests } from '../../src/transport/handled-transport-requests.repository';

/** The record of handled transport requests for a use case run outside any transport request: nothing to record. */
export const NOT_A_TRANSPORT_REQUEST = fake<HandledTransportRequests>({ record: async () => undefined });
