import { Foundation1763700000000 } from './1763700000000-foundation';

/** Every migration, oldest first. A new migration is appended here. */
export const MIGRATIONS = [Foundation1763700000000];
