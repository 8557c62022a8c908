import { PUBLIC_USER_NAME_MAX_CHARACTERS, type ShareLinkResponse } from '@parla/contracts';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useToast } from '../../../app/toasts/toast-provider';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, inputClasses } from '../../../ui/field';
import { SpinnerIcon } from '../../../ui/icons';
import { Sheet } from '../../../ui/sheet';
import { useShareLink } from '../api/get-share-link';
import { useUpdatePublicUserName } from '../api/update-public-user-name';
import {
  getShareIntentUrls,
  isMobileUserAgent,
  SHARE_BRAND,
  type ShareNetwork,
  shareLinkMessages,
  shareMessage,
  shareNatively,
  shortenShareLink,
  toAbsoluteShareLink,
} from '../share-link-rules';

export interface ShareLinkDialogProps {
  historyItemId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The share link dialog (history/voices §2 "Share link dialog", §4 "Share link", §8), titled "Share with
 * your community". It asks for the link when it opens ("Generating link..." until it arrives; a failure
 * shows in an error alert). On a desktop: facebook, x and whatsapp intents, a divider, the copy-link row
 * (the link cut at 38 characters) and the public-name editor. On mobile (the user-agent test) it is a
 * bottom sheet with the public-name editor and a native share button.
 */
export function ShareLinkDialog({ historyItemId, open, onOpenChange }: ShareLinkDialogProps) {
  const mobile = typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent);
  if (mobile) {
    return (
      <Sheet open={open} onOpenChange={onOpenChange} title={shareLinkMessages.title}>
        {open && <ShareLinkBody historyItemId={historyItemId} mobile />}
      </Sheet>
    );
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={shareLinkMessages.title}>
      {open && <ShareLinkBody historyItemId={historyItemId} mobile={false} />}
    </Dialog>
  );
}

/** The dialog's content, mounted while it is open, so the link is asked for on each opening. */
function ShareLinkBody({ historyItemId, mobile }: { historyItemId: string; mobile: boolean }) {
  const shareLink = useShareLink(historyItemId);
  const link = shareLink.data ? toAbsoluteShareLink(shareLink.data.share_link, window.location.origin) : null;

  const status = shareLink.isError ? (
    <FormMessage>{getToastMessage(shareLink.error)}</FormMessage>
  ) : shareLink.isPending ? (
    <p role="status" className="flex items-center gap-2 text-sm text-fg-muted">
      <SpinnerIcon className="motion-safe:animate-spin" />
      {shareLinkMessages.generating}
    </p>
  ) : null;

  if (mobile) {
    return (
      <>
        {status}
        {shareLink.data && <PublicNameEditor key={historyItemId} initial={shareLink.data} />}
        <NativeShareButton link={link} />
      </>
    );
  }
  return (
    <>
      {status}
      <SocialButtons link={link} />
      <hr className="border-line" />
      <CopyLinkRow link={link} />
      {shareLink.data && <PublicNameEditor key={historyItemId} initial={shareLink.data} />}
    </>
  );
}

const networks: ReadonlyArray<{ network: ShareNetwork; label: string; icon: ReactNode }> = [
  { network: 'facebook', label: 'Facebook', icon: <FacebookMark /> },
  { network: 'x', label: 'X', icon: <XMark /> },
  { network: 'whatsapp', label: 'WhatsApp', icon: <WhatsAppMark /> },
];

/** history/voices §2: the facebook, x and whatsapp intents, carrying the link and the message. */
function SocialButtons({ link }: { link: string | null }) {
  const urls = link ? getShareIntentUrls(link, shareMessage) : null;
  return (
    <ul aria-label="Share on" className="grid grid-cols-3 gap-2">
      {networks.map(({ network, label, icon }) => (
        <li key={network}>
          {urls ? (
            <Button asChild variant="secondary" className="w-full">
              <a
                href={urls[network]}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`Share on ${label}`}
              >
                {icon}
                {label}
              </a>
            </Button>
          ) : (
            <Button variant="secondary" className="w-full" disabled aria-label={`Share on ${label}`}>
              {icon}
              {label}
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Writes text to the clipboard (the async Clipboard API of every browser Parla supports). */
function copyToClipboard(text: string): Promise<void> {
  if (!navigator.clipboard) return Promise.reject(new Error('The clipboard is not available.'));
  return navigator.clipboard.writeText(text);
}

/** history/voices §2, §9: the link cut at 38 characters plus an ellipsis, and a Copy button. */
function CopyLinkRow({ link }: { link: string | null }) {
  const { toast, toastError } = useToast();
  const handleCopy = async () => {
    if (!link) return;
    try {
      await copyToClipboard(link);
      toast({ title: shareLinkMessages.copied, variant: 'success' });
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <div className="flex items-center gap-2">
      <output
        aria-label="Share link"
        title={link ?? undefined}
        className="flex h-10 min-w-0 flex-1 items-center truncate rounded-lg border border-line bg-subtle px-3 font-mono text-sm text-fg"
      >
        {link ? shortenShareLink(link) : ''}
      </output>
      <Button variant="secondary" disabled={!link} onClick={() => void handleCopy()}>
        Copy
      </Button>
    </div>
  );
}

/**
 * history/voices §4, §8: the public name, saved on demand. "Public name updated" shows whether or not the
 * save worked; a failure is only logged.
 */
function PublicNameEditor({ initial }: { initial: ShareLinkResponse }) {
  const id = useId();
  const { toast } = useToast();
  const [name, setName] = useState(initial.public_user_name ?? '');
  const save = useUpdatePublicUserName();
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(name.trim(), {
      onError: (error) => console.error('Saving the public name failed', error),
      onSettled: () => toast({ title: shareLinkMessages.publicNameUpdated, variant: 'success' }),
    });
  };
  return (
    <form onSubmit={handleSubmit} className="flex flex-col gap-1.5">
      <label htmlFor={`${id}-name`} className="text-sm font-medium text-fg">
        Public name
      </label>
      <div className="flex items-center gap-2">
        <input
          id={`${id}-name`}
          value={name}
          maxLength={PUBLIC_USER_NAME_MAX_CHARACTERS}
          placeholder={`A ${SHARE_BRAND} user`}
          autoComplete="nickname"
          onChange={(event) => setName(event.target.value)}
          aria-describedby={`${id}-note`}
          className={inputClasses}
        />
        <Button type="submit" variant="secondary" disabled={save.isPending} aria-busy={save.isPending}>
          {save.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
          Save
        </Button>
      </div>
      <p id={`${id}-note`} className="text-sm text-fg-muted">
        Shown as “Shared by …” on the pages you share.
      </p>
    </form>
  );
}

/**
 * history/voices §2, §4, §8 on mobile: the native share sheet when there is one; cancelling ends quietly,
 * a failure copies the link, and without share support the link is copied too — each copy with its toast.
 */
function NativeShareButton({ link }: { link: string | null }) {
  const { toast } = useToast();
  const [sharing, setSharing] = useState(false);
  const handleShare = async () => {
    if (!link) return;
    setSharing(true);
    const outcome = await shareNatively(
      {
        share: typeof navigator.share === 'function' ? (data) => navigator.share(data) : undefined,
        copy: copyToClipboard,
      },
      { url: link, text: shareMessage, title: SHARE_BRAND },
    );
    setSharing(false);
    if (outcome.kind === 'copied') toast({ title: outcome.toast });
  };
  return (
    <Button className="w-full" disabled={!link || sharing} onClick={() => void handleShare()}>
      Share
    </Button>
  );
}

/** The facebook mark. */
function FacebookMark() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M24 12.07C24 5.4 18.63 0 12 0S0 5.4 0 12.07C0 18.1 4.39 23.1 10.13 24v-8.44H7.08v-3.49h3.05V9.41c0-3.02 1.8-4.7 4.54-4.7 1.31 0 2.68.24 2.68.24v2.97h-1.51c-1.49 0-1.96.93-1.96 1.89v2.26h3.33l-.53 3.49h-2.8V24C19.61 23.1 24 18.1 24 12.07Z" />
    </svg>
  );
}

/** The x mark. */
function XMark() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M18.24 2.25h3.31l-7.23 8.26 8.5 11.24h-6.66l-5.21-6.82-5.97 6.82H1.67l7.73-8.84L1.25 2.25h6.83l4.71 6.23 5.45-6.23Zm-1.16 17.52h1.83L7.08 4.13H5.12l11.96 15.64Z" />
    </svg>
  );
}

/** The whatsapp mark. */
function WhatsAppMark() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M17.47 14.38c-.3-.15-1.76-.87-2.03-.97-.27-.1-.47-.15-.67.15-.2.3-.77.97-.94 1.17-.17.2-.35.22-.64.07-.3-.15-1.26-.46-2.39-1.47-.88-.79-1.48-1.76-1.65-2.06-.17-.3-.02-.46.13-.6.13-.14.3-.35.45-.52.15-.17.2-.3.3-.5.1-.2.05-.37-.03-.52-.07-.15-.67-1.61-.92-2.21-.24-.58-.49-.5-.67-.51h-.57c-.2 0-.52.07-.79.37-.27.3-1.04 1.02-1.04 2.48s1.07 2.88 1.22 3.08c.15.2 2.1 3.2 5.08 4.49.71.31 1.26.49 1.69.63.71.23 1.36.2 1.87.12.57-.09 1.76-.72 2.01-1.41.25-.7.25-1.29.17-1.41-.07-.12-.27-.2-.57-.35ZM12.05 21.5h-.01a9.87 9.87 0 0 1-5.03-1.38l-.36-.21-3.74.98 1-3.65-.24-.37a9.86 9.86 0 0 1-1.51-5.26c0-5.45 4.44-9.88 9.89-9.88 2.64 0 5.12 1.03 6.99 2.9a9.83 9.83 0 0 1 2.89 6.99c0 5.45-4.44 9.88-9.88 9.88Zm8.41-18.3A11.82 11.82 0 0 0 12.05 0C5.5 0 .16 5.34.16 11.89c0 2.1.55 4.14 1.59 5.95L.06 24l6.3-1.65a11.88 11.88 0 0 0 5.68 1.45h.01c6.55 0 11.89-5.34 11.89-11.89 0-3.18-1.24-6.16-3.48-8.41Z" />
    </svg>
  );
}
