import type { HistoryItemResponse } from '@parla/contracts';
import { ShareLinkDialog } from './share-link-dialog';
import { ShareToastArea } from './share-toast-area';
import { ShareVideoDialog } from './share-video-dialog';

/** Which item is being shared, and through which dialog (history/voices §2 "Share controls"). */
export interface SharingState {
  item: HistoryItemResponse;
  opens: 'video' | 'link';
}

export interface ShareDialogsProps {
  sharing: SharingState | null;
  onClose: () => void;
  /** The video dialog's way to the link dialog. */
  onShareLink: () => void;
}

/**
 * The share area: the video dialog when the tts-video-generation flag is on, the link dialog otherwise
 * (history/voices §2), both with their toasts top-centre.
 */
export function ShareDialogs({ sharing, onClose, onShareLink }: ShareDialogsProps) {
  const handleOpenChange = (open: boolean) => {
    if (!open) onClose();
  };
  return (
    <ShareToastArea>
      {sharing?.opens === 'video' && (
        <ShareVideoDialog
          item={sharing.item}
          open
          onOpenChange={handleOpenChange}
          onShareLink={onShareLink}
        />
      )}
      {sharing?.opens === 'link' && (
        <ShareLinkDialog historyItemId={sharing.item.history_item_id} open onOpenChange={handleOpenChange} />
      )}
    </ShareToastArea>
  );
}
