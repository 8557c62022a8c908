import { recordUserMessageEventRoute, type UserMessageEvent } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/messages/{id}/events` (accounts §3 Event): best effort, a failure is only logged. */
export function recordUserMessageEvent(messageId: string, event: UserMessageEvent): Promise<void> {
  return apiRequest(recordUserMessageEventRoute, { params: { message_id: messageId }, body: { event } }).then(
    () => undefined,
    (error: unknown) => console.warn(`The message event "${event}" was not recorded.`, error),
  );
}
