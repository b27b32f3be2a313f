/**
 * A typed test double of a class or port, for unit tests: the members given
 * are checked against `T`'s, so a double cannot drift from the port it stands
 * for. Give only what the code under test calls; calling anything else fails
 * as "is not a function". The one cast of every double is here.
 */
export function fake<T extends object>(members: Partial<T> = {}): T {
  return members as T;
}
