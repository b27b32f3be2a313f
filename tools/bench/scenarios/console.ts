import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { encodeIdAndSecret } from '@platform/auth';
import { chromium } from 'playwright-core';
import type { DemoFixture } from '../../demo/demo-fixture';
import { percentiles } from '../harness';

const CONSOLE_URL = process.env.BENCH_CONSOLE_URL ?? 'http://127.0.0.1:3004';
const SERVICES_URL = process.env.BENCH_SERVICES_API_URL ?? `http://127.0.0.1:${process.env.SERVICES_API_PORT ?? 3000}`;
const ROUNDS = Number(process.env.BENCH_CONSOLE_ROUNDS ?? 20);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WAIT = { timeout: 30_000 };

/**
 * The operator console on the quick start (`npm start` running, its demo
 * data in .data/demo-fixture.json), in headless Chromium: the time from
 * pressing "Sign in" to the first queue on screen (the sign-in, the tenants,
 * choosing the demo tenant, the inboxes, the queue and its counts), in a new
 * browser context each round; then, on one signed-in page, from sending a
 * channel's message over REST to its text in the queue on screen (the commit,
 * the relay, the gateway's frame, the queue read again).
 */
export async function operatorConsole(): Promise<void> {
  const fixture = JSON.parse(readFileSync('.data/demo-fixture.json', 'utf8')) as DemoFixture;
  if (!fixture.inboxID) throw new Error('.data/demo-fixture.json has no inboxID: run `npm start` first');
  const owner = fixture.operators.owner;
  const channel = `PluginConnection ${encodeIdAndSecret(fixture.pluginConnection.pluginConnectionID, fixture.pluginConnection.pluginConnectionToken)}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  try {
    const signIn = async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(CONSOLE_URL);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      const started = performance.now();
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.tenant-list button').first().click(WAIT);
      await page.locator('.queue-tabs .count').first().filter({ hasText: /\d/ }).waitFor(WAIT);
      await page.locator('.session-list, .empty').first().waitFor(WAIT);
      return { context, page, ms: performance.now() - started };
    };

    const signInTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const { context, ms } = await signIn();
      signInTimes.push(ms);
      await context.close();
    }

    const { context, page } = await signIn();
    await page.locator('[data-connection="live"]').waitFor(WAIT);
    const liveTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const content = `Bench ${randomUUID()}`;
      const started = performance.now();
      const posted = await fetch(`${SERVICES_URL}/v1/tenants/${fixture.tenantID}/inboxes/${fixture.inboxID}/messages`, {
        method: 'POST',
        headers: { authorization: channel, 'content-type': 'application/json' },
        body: JSON.stringify({ contactHandle: `+55119${String(Date.now()).slice(-8)}`, contactName: 'Bench', channelMessageID: `bench.${randomUUID()}`, content }),
      });
      if (posted.status !== 201) throw new Error(`posting a message answered ${posted.status}: ${await posted.text()}`);
      await page.getByRole('list', { name: 'Queued sessions' }).getByText(content).waitFor(WAIT);
      liveTimes.push(performance.now() - started);
    }
    await context.close();

    const row = (name: string, samples: number[]) => {
      const { p50, p99 } = percentiles(samples);
      return `| ${name} | ${samples.length} | ${p50.toFixed(0)} | ${p99.toFixed(0)} | ${Math.max(...samples).toFixed(0)} |`;
    };
    process.stdout.write(
      [
        '',
        `### Operator console on the quick start (${CONSOLE_URL}), headless Chromium`,
        '',
        '| measured | rounds | p50 ms | p99 ms | max ms |',
        '|---|---|---|---|---|',
        row('"Sign in" pressed to the first queue rendered (new browser context each)', signInTimes),
        row("a channel's message sent over REST to its text in the queue", liveTimes),
        '',
      ].join('\n'),
    );
  } finally {
    await browser.close();
  }
}
