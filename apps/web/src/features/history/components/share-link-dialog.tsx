import { PUBLIC_USER_NAME_MAX_CHARACTERS, type ShareLinkResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, inputClasses } from '../../../ui/field';
import { FacebookLogoIcon, SpinnerIcon, WhatsAppLogoIcon, XLogoIcon } from '../../../ui/icons';
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
  { network: 'facebook', label: 'Facebook', icon: <FacebookLogoIcon /> },
  { network: 'x', label: 'X', icon: <XLogoIcon /> },
  { network: 'whatsapp', label: 'WhatsApp', icon: <WhatsAppLogoIcon /> },
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
  const [showLink, setShowLink] = useState(false);
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
    if (outcome.kind === 'copied' || outcome.kind === 'copy-failed') toast({ title: outcome.toast });
    if (outcome.kind === 'copy-failed') setShowLink(true);
  };
  return (
    <>
      <Button className="w-full" disabled={!link || sharing} onClick={() => void handleShare()}>
        Share
      </Button>
      {showLink && link && (
        <input
          readOnly
          value={link}
          aria-label="Share link to copy"
          onFocus={(event) => event.currentTarget.select()}
          className={clsx(inputClasses, 'font-mono text-sm')}
        />
      )}
    </>
  );
}
