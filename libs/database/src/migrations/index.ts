import { Foundation1763700000000 } from './1763700000000-foundation';
import { HelpdeskDomains1764100000000 } from './1764100000000-helpdesk-domains';

/** Every migration, oldest first. A new migration is appended here. */
export const MIGRATIONS = [Foundation1763700000000, HelpdeskDomains1764100000000];
