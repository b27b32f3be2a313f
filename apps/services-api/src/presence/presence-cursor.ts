import type { KeysetList } from '@platform/http-common';
import { isUuid } from '@platform/http-common';

/** A position in a tenant's presence list, by operator id: the page's last operator. */
export const PRESENCE_PAGES: KeysetList<string> = {
  name: 'presence',
  format: (operatorID) => operatorID,
  parse: (text) => (isUuid(text) ? text.toLowerCase() : undefined),
};
