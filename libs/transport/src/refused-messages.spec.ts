import { PlatformMetrics } from '@platform/observability';
import { capturedLogs } from '@platform/testing-doubles';
import { beforeEach, describe, expect, it } from 'vitest';
import { RefusedMessages } from './refused-messages';

describe('RefusedMessages', () => {
  beforeEach(() => capturedLogs.clear());
  const warnings = () => capturedLogs.lines('Transport').filter((line) => line.level === 'warn');

  it('counts every dropped message and logs at most once per interval, with what was dropped since the last line', async () => {
    const metrics = new PlatformMetrics('test');
    let now = 0;
    const refusals = new RefusedMessages(metrics, 60_000, () => now);
    refusals.refused('request', 'unsigned', 'ns:a');
    for (let index = 0; index < 99; index += 1) refusals.refused('request', 'bad_mac', 'ns:a');
    expect(warnings()).toHaveLength(1);
    now = 60_000;
    refusals.refused('reply', 'stale', 'ns:a.reply');
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1].message).toMatchObject({ refused: { 'request:bad_mac': 99, 'reply:stale': 1 } });
    const counted = (await metrics.transportMessagesRefused.get()).values.map(({ labels, value }) => [labels.direction, labels.reason, value]);
    expect(counted).toEqual(expect.arrayContaining([['request', 'unsigned', 1], ['request', 'bad_mac', 99], ['reply', 'stale', 1]]));
  });
});
