/**
 * Preloaded (node --require) into apps the bench profiles: Nest's shutdown
 * hooks end the process by re-raising SIGTERM, and a process killed by a
 * signal never writes its --cpu-prof profile. With this listener in place the
 * re-raised signal is caught and the process exits normally once drained.
 */
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    setTimeout(() => process.exit(0), 2_000);
  });
}
