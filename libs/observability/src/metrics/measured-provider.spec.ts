import { describe, expect, it } from 'vitest';
import { measuredProvider } from './measured-provider';
import { PlatformMetrics } from './platform-metrics';

class Adapter {
  closed = false;

  async fetchThing(id: string): Promise<string> {
    if (id === 'broken') throw new Error('provider down');
    return `thing ${id}`;
  }

  async submit(kind: 'accepted' | 'unavailable'): Promise<{ kind: string }> {
    return { kind };
  }

  close(): void {
    this.closed = true;
  }
}

const countOf = async (metrics: PlatformMetrics, labels: Record<string, string>) =>
  (await metrics.providerCallDuration.get()).values.find(
    (value) => value.metricName === 'platform_provider_call_duration_seconds_count' && Object.entries(labels).every(([key, expected]) => (value.labels as Record<string, unknown>)[key] === expected),
  )?.value;

describe('measuredProvider', () => {
  it('observes each call by provider, operation and outcome, answering what the adapter answers', async () => {
    const metrics = new PlatformMetrics('test-app');
    const adapter = measuredProvider('things', new Adapter(), metrics, { operations: ['fetchThing'] });
    await expect(adapter.fetchThing('a')).resolves.toBe('thing a');
    await expect(adapter.fetchThing('broken')).rejects.toThrow('provider down');
    expect(await countOf(metrics, { provider: 'things', operation: 'fetchThing', outcome: 'ok' })).toBe(1);
    expect(await countOf(metrics, { provider: 'things', operation: 'fetchThing', outcome: 'error' })).toBe(1);
  });

  it('counts a result the adapter reports as a failure as an error', async () => {
    const metrics = new PlatformMetrics('test-app');
    const adapter = measuredProvider('templates', new Adapter(), metrics, {
      operations: ['submit'],
      failedResult: (_, result) => (result as { kind: string }).kind === 'unavailable',
    });
    await adapter.submit('unavailable');
    await adapter.submit('accepted');
    expect(await countOf(metrics, { operation: 'submit', outcome: 'error' })).toBe(1);
    expect(await countOf(metrics, { operation: 'submit', outcome: 'ok' })).toBe(1);
  });

  it('leaves other members as they are', () => {
    const metrics = new PlatformMetrics('test-app');
    const adapter = measuredProvider('things', new Adapter(), metrics, { operations: ['fetchThing'] });
    adapter.close();
    expect(adapter.closed).toBe(true);
    expect(adapter).toBeInstanceOf(Adapter);
  });
});
