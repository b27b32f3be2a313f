import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { consoleSettingsFrom } from './console-config';
import { createConsoleServer } from './console-server';

/**
 * The operator console's server process (`npm start` runs it; the image's
 * `operator-console` target too): CONSOLE_* variables in, the built assets
 * of CONSOLE_ASSETS_DIR out, until SIGTERM.
 */
function main(): void {
  const settings = consoleSettingsFrom(process.env);
  const assetsDir = resolve(process.env.CONSOLE_ASSETS_DIR ?? 'dist/operator-console');
  if (!existsSync(resolve(assetsDir, 'index.html'))) throw new Error(`no built console in ${assetsDir}: run \`npm run build:console\` (or set CONSOLE_ASSETS_DIR)`);
  const server = createConsoleServer({ assetsDir, config: () => settings.config });
  server.listen(settings.port, settings.host, () => {
    process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: `operator console on http://${settings.host}:${settings.port}` })}\n`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

try {
  main();
} catch (error) {
  process.stderr.write(`${JSON.stringify({ level: 60, time: Date.now(), msg: `operator console: ${error instanceof Error ? error.message : String(error)}` })}\n`);
  process.exit(1);
}
