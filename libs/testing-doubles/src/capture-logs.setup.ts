import { Logger } from '@nestjs/common';
import { beforeEach } from 'vitest';
import { capturedLogs } from './captured-logs';

/**
 * Vitest setup for every test file: Nest's logger keeps its lines instead of
 * printing them (an expected error is asserted, not shown with its stack),
 * and prints them only for a test that fails: the lines logged since the
 * test before it ended (so a failing first test shows its `beforeAll`'s
 * lines too). `TEST_LOG=1` prints every line
 * as it is logged. An app a test boots sets its own logger (AppLogger, at
 * `TEST_LOG_LEVEL`, silent by default) in place of this one.
 */
if (process.env.TEST_LOG !== '1') {
  Logger.overrideLogger(capturedLogs);
  let previousTestEnded = 0;
  beforeEach(({ onTestFailed, onTestFinished }) => {
    const from = Math.min(previousTestEnded, capturedLogs.count());
    onTestFailed(() => capturedLogs.print(from));
    onTestFinished(() => {
      previousTestEnded = capturedLogs.count();
    });
  });
}
