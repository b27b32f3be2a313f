import { Foundation1763700000000 } from './1763700000000-foundation';
import { OperatorInvitations1764000000000 } from './1764000000000-operator-invitations';

/** Every migration, oldest first. A new migration is appended here. */
export const MIGRATIONS = [Foundation1763700000000, OperatorInvitations1764000000000];
