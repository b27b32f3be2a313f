export { InvalidAllowEntry, OutboundAllowList } from './allow-list';
export { dnsResolver, OutboundHttp, OutboundRefused } from './outbound-dispatcher';
export type { OutboundPolicy, OutboundResolver } from './outbound-dispatcher';
export { isPublicAddress } from './public-address';
export { IsOutboundAllowList, outboundPolicyOf } from './outbound-settings';
export type { OutboundSettings } from './outbound-settings';
