import { enableCompileCache } from 'node:module';

/**
 * Node.js's module compile cache, on before the app loads anything else: each
 * app's main imports this first. A start then reuses the V8 code of the
 * modules an earlier start compiled (its ~2,500 CommonJS and ES modules) instead
 * of parsing and compiling them again, about a fifth of start-up's CPU time
 * (docs/benchmarks-memory.md, Start-up). The directory is NODE_COMPILE_CACHE
 * when set (the images bake one at build time, docker/Dockerfile), else
 * node-compile-cache under the OS's temporary directory. Entries are checked
 * against the file's content and Node.js's version, so a stale entry is
 * compiled again, never run; a directory that cannot be written (a read-only
 * image layer) only means the modules it lacks are compiled as without it.
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
enableCompileCache();
