/** The load of `npm run bench -- cpu-per-request`: how many requests, at how many connections, and the floors' targets. */
export const CONNECTIONS = 10;
export const WARM_UP = 500;
export const REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 15_000);
/** Operation 1 consumes a connection per request: fewer of them, each a real delete. */
export const DELETES = Number(process.env.BENCH_CPU_DELETES ?? 3_000);
export const DELETE_WARM_UP = 300;
export const ROWS = 60;
export const PER_PAGE = 20;
/** Throttled refreshes sent to one domain before moving to the next (its window is 10 s). */
export const THROTTLED_BATCH = 2_000;
/** Requests of an operation sent before the one whose SQL is captured, so every cache is as warm as under load. */
export const CAPTURE_AFTER = 3;
/** A read operation's CPU per request must stay within this of its floor; operation 1 within FLOOR_TARGET_WRITE of its floors' sum. */
export const FLOOR_TARGET_READ = 1.5;
export const FLOOR_TARGET_WRITE = 2;
