import { Logger } from '@nestjs/common';
import { PlatformMetrics } from '@platform/observability';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RefusedMessages } from './refused-messages';

describe('RefusedMessages', () => {
  afterEach(() => vi.restoreAllMocks());

  it('counts every dropped message and logs at most once per interval, with what was dropped since the last line', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const metrics = new PlatformMetrics('test');
    let now = 0;
    const refusals = new RefusedMessages(metrics, 60_000, () => now);
    refusals.refused('request', 'unsigned', 'ns:a');
    for (let index = 0; index < 99; index += 1) refusals.refused('request', 'bad_mac', 'ns:a');
    expect(warn).toHaveBeenCalledTimes(1);
    now = 60_000;
    refusals.refused('reply', 'stale', 'ns:a.reply');
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1][0]).toMatchObject({ refused: { 'request:bad_mac': 99, 'reply:stale': 1 } });
    const counted = (await metrics.transportMessagesRefused.get()).values.map(({ labels, value }) => [labels.direction, labels.reason, value]);
    expect(counted).toEqual(expect.arrayContaining([['request', 'unsigned', 1], ['request', 'bad_mac', 99], ['reply', 'stale', 1]]));
  });
});
