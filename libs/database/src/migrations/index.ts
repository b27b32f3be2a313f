import { Foundation1763700000000 } from './1763700000000-foundation';
import { ShortcutsSessionsNotifications1763900000000 } from './1763900000000-shortcuts-sessions-notifications';

/** Every migration, oldest first. A new migration is appended here. */
export const MIGRATIONS = [Foundation1763700000000, ShortcutsSessionsNotifications1763900000000];
