export { keysInTrialOrder } from './key-set';
export type { KeySet } from './key-set';
export type { KeyDerivation } from './derivation';
export { MacKeys } from './mac-keys';
export { SealingKeys } from './sealing-keys';
export type { SealedParts } from './sealing-keys';
