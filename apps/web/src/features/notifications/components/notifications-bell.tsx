import type { MessageSeverity, UserMessage } from '@parla/contracts';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { clsx } from 'clsx';
import type { ComponentType, SVGProps } from 'react';
import { useNavigate } from 'react-router';
import { formatRelativeDate } from '../../../lib/format-date';
import { useToast } from '../../../lib/toasts/use-toast';
import { getButtonClasses } from '../../../ui/button';
import { AlertCircleIcon, BellIcon, CheckCircleIcon, InfoIcon } from '../../../ui/icons';
import { useUserMessages } from '../api/list-user-messages';
import { useMarkAllUserMessagesRead, useMarkUserMessageRead } from '../api/mark-user-messages-read';
import { recordUserMessageEvent } from '../api/record-user-message-event';

/** How each severity looks: its icon, its colour and the word a screen reader hears (not colour alone). */
const severityLooks: Record<
  MessageSeverity,
  { icon: ComponentType<SVGProps<SVGSVGElement>>; className: string; label: string }
> = {
  info: { icon: InfoIcon, className: 'text-accent', label: 'Info' },
  success: { icon: CheckCircleIcon, className: 'text-success', label: 'Success' },
  warning: { icon: AlertCircleIcon, className: 'text-warning', label: 'Warning' },
  error: { icon: AlertCircleIcon, className: 'text-danger', label: 'Error' },
};

/** The bell button's accessible name: the unread count is in the name, the badge only shows it. */
export function notificationsLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

function MessageRow({ message }: { message: UserMessage }) {
  const look = severityLooks[message.severity];
  const Icon = look.icon;
  return (
    <div className="flex gap-3">
      <Icon className={clsx('mt-0.5 size-4 shrink-0', look.className)} />
      <div className="min-w-0 flex-1">
        <p className={clsx('text-sm', message.has_been_read ? 'text-fg-muted' : 'font-medium text-fg')}>
          <span className="sr-only">
            {message.has_been_read ? '' : 'Unread. '}
            {look.label}:{' '}
          </span>
          {message.title}
        </p>
        {message.description && <p className="mt-0.5 text-sm text-fg-muted">{message.description}</p>}
        <p className="mt-1 flex items-center gap-2 text-xs text-fg-muted">
          <time dateTime={new Date(message.create_date_unix_ms).toISOString()}>
            {formatRelativeDate(message.create_date_unix_ms)}
          </time>
          {message.needs_attention && !message.has_been_read && (
            <span className="font-medium text-warning">Needs attention</span>
          )}
        </p>
      </div>
      {!message.has_been_read && (
        <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-accent" />
      )}
    </div>
  );
}

/**
 * The bell in the app shell (accounts §3 "Message"): the unread count on the button, the newest messages
 * in a menu with their severity, "Mark all as read", and a message marked read when chosen (its link, if
 * any, opens). Polls while signed in; a failed load leaves the bell without a count, never a toast.
 */
export function NotificationsBell() {
  const { data, isError } = useUserMessages(true);
  const markRead = useMarkUserMessageRead();
  const markAll = useMarkAllUserMessagesRead();
  const navigate = useNavigate();
  const { toastError } = useToast();
  const unread = data?.unread_count ?? 0;
  const messages = data?.messages ?? [];

  const handleSelect = (event: Event, message: UserMessage) => {
    if (!message.has_been_read) markRead.mutate(message.message_id, { onError: toastError });
    if (!message.link) {
      // Nothing to open: the menu stays, showing the message read.
      event.preventDefault();
      return;
    }
    void recordUserMessageEvent(message.message_id, 'clicked');
    void navigate(message.link);
  };

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        aria-label={notificationsLabel(unread)}
        className={clsx(getButtonClasses('ghost', 'icon'), 'relative')}
      >
        <BellIcon />
        {unread > 0 && (
          <span
            aria-hidden="true"
            className="absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-danger px-1 text-[10px] leading-none font-semibold text-white tabular-nums"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          aria-label="Notifications"
          className="z-50 w-96 max-w-[calc(100vw-2rem)] rounded-lg border border-line bg-surface text-fg shadow-lg dark:shadow-black/40"
        >
          <div className="flex items-center justify-between gap-2 border-b border-line px-3 py-2">
            <DropdownMenu.Label className="text-sm font-semibold">Notifications</DropdownMenu.Label>
            <DropdownMenu.Item
              disabled={unread === 0}
              onSelect={(event) => {
                event.preventDefault();
                markAll.mutate(undefined, { onError: toastError });
              }}
              className="cursor-pointer rounded-md px-2 py-1 text-xs font-medium text-accent outline-none select-none data-disabled:cursor-default data-disabled:text-fg-muted data-disabled:opacity-60 data-highlighted:bg-subtle"
            >
              Mark all as read
            </DropdownMenu.Item>
          </div>
          {messages.length === 0 ? (
            <p className="px-3 py-8 text-center text-sm text-fg-muted">
              {isError
                ? 'Notifications could not be loaded. They will be tried again shortly.'
                : data
                  ? 'No notifications yet. Payment problems, low credits and invitations show up here.'
                  : 'Loading notifications…'}
            </p>
          ) : (
            <DropdownMenu.Group className="max-h-96 overflow-y-auto p-1">
              {messages.map((message) => (
                <DropdownMenu.Item
                  key={message.message_id}
                  onSelect={(event) => handleSelect(event, message)}
                  className={clsx(
                    'cursor-pointer rounded-md px-2 py-2 outline-none select-none data-highlighted:bg-subtle',
                    !message.has_been_read && 'bg-accent/5',
                  )}
                >
                  <MessageRow message={message} />
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.Group>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
