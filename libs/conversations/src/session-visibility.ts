/**
 * Who may see a session, as of one committed state: the snapshot every
 * session and message event carries (`listed`, `operatorID`,
 * `participantIDs`), so a consumer of the outbox (the real-time gateway)
 * decides without a database query. services-api's operation 11 applies the
 * same rule in SQL (session-visibility.ts, `visibleSql`),
 * and every conversation route applies this function.
 */
export interface SessionVisibilitySnapshot {
  /** `sessionListed`: every operator of the tenant sees a listed session. */
  listed: boolean;
  /** The assignee, or null while the session is queued. */
  operatorID: string | null;
  /** `operatorParticipantsIDs`: operators who joined or handed the session over. */
  participantIDs: readonly string[];
}

/**
 * An operator of the session's tenant may see it when it is listed, assigned
 * to them, or they take part in it. Membership of the tenant is checked
 * before (the access check, or the gateway's own subscription rule): this
 * rule never grants a session of another tenant. Ids are canonical
 * (lower-case) UUIDs.
 */
export function operatorMaySeeSession(operatorID: string, snapshot: SessionVisibilitySnapshot): boolean {
  return snapshot.listed || snapshot.operatorID === operatorID || snapshot.participantIDs.includes(operatorID);
}
