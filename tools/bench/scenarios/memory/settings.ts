/** The soak of `npm run bench -- memory`: its length, its rate, the start-ups, the seeded rows and the targets. */
/** Length of the soak under the pods' limits (the figures quote 600 s). */
export const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
/** Length of the same load without a limit, for the p99 it is compared with. */
export const UNLIMITED_SECONDS = Number(process.env.BENCH_SOAK_UNLIMITED_SECONDS ?? Math.min(120, SOAK_SECONDS));
/** Starts of each app for the start-up times. */
export const STARTUP_RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
/** Multiplies every stream's rate (1: the mix below, about 100 requests/s in all). */
export const RATE = Number(process.env.BENCH_SOAK_RATE ?? 1);
/** Seconds between an app's readiness and its idle reading (pools fill, timers run once, boot code settles). */
export const SETTLE_SECONDS = 10;
/** Where to write heap snapshots (idle and after the unlimited run's load); unset: none. */
export const SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOT_DIR;

export const DOMAIN = 'bench-atendimento.com.br';
export const ROWS = 60;
export const SIGN_IN_OPERATORS = 20;
export const TARGETS = { peakShareOfLimit: 0.6, growthOverLastHalf: 0.05 };
/** The memory cgroup holding one cgroup per app (`/sys/fs/cgroup/memory/platform-bench/<app>`). */
export const BENCH_CGROUP = 'platform-bench';
