import { AppException } from '@platform/errors';
import type { ConversationsSettings } from '../conversations-settings';

/** Refuses (422 1948) content longer than the setting, counted in characters (code points) like every length rule of the API. */
export function refuseLongContent(content: string, settings: ConversationsSettings): void {
  let length = 0;
  for (const _ of content) {
    length += 1;
    if (length > settings.messageContentMaxCharacters) throw new AppException('MessageContentTooLong');
  }
}
