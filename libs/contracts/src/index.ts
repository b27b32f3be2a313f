export { defineMessage } from './message';
export type { MessageContract } from './message';
export { TransportPing, TransportPingPayload } from './transport-ping/transport-ping.message';
export type { TransportPingReply } from './transport-ping/transport-ping.message';
export { IssueOperatorToken, IssueOperatorTokenPayload } from './operator-tokens/issue-operator-token.message';
export type { IssueOperatorTokenReply } from './operator-tokens/issue-operator-token.message';
