import type { Clock } from '@platform/scheduling';
import { describe, expect, it } from 'vitest';
import { AnswerTransportPingUseCase } from './answer-transport-ping.use-case';

describe('AnswerTransportPingUseCase', () => {
  it("answers core-tenants' name, the time of the clock and the sender", () => {
    const clock: Clock = { now: () => new Date('2026-03-04T05:06:07.089Z') };
    expect(new AnswerTransportPingUseCase(clock).execute({ from: 'services-api' })).toEqual({
      app: 'core-tenants',
      receivedAt: '2026-03-04T05:06:07.089Z',
      from: 'services-api',
    });
  });
});
