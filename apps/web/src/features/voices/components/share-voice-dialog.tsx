import type { VoiceResponse } from '@parla/contracts';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { Switch } from '../../../ui/switch';
import { useShareVoice } from '../api/share-voice';
import { readVoiceSharing, sharedVoicePath } from '../voice-rules';

export interface ShareVoiceDialogProps {
  /** The own voice to share (never a library copy); the dialog is open while there is one. */
  voice: VoiceResponse | null;
  onClose: () => void;
}

/**
 * Sharing an own voice in the voice library (history/voices §3 sharing, §7 share): on or off, with live
 * moderation (§5: such voices are not offered in Studio) and whether free plans may add it.
 */
export function ShareVoiceDialog({ voice, onClose }: ShareVoiceDialogProps) {
  return (
    <Dialog
      open={voice !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={voice ? `Share ${voice.name}` : 'Share voice'}
      description="Shared voices appear in the voice library, where anyone on this server can listen to them and add them to their voices."
      size="lg"
    >
      {voice && <ShareVoiceForm key={voice.voice_id} voice={voice} onClose={onClose} />}
    </Dialog>
  );
}

function ShareVoiceForm({ voice, onClose }: { voice: VoiceResponse; onClose: () => void }) {
  const { toast } = useToast();
  const share = useShareVoice();
  const sharing = readVoiceSharing(voice);
  const wasShared = sharing?.status === 'enabled';
  const [enabled, setEnabled] = useState(wasShared);
  const [liveModeration, setLiveModeration] = useState(sharing?.live_moderation_enabled ?? false);
  const [freeUsers, setFreeUsers] = useState(sharing?.free_users_allowed ?? true);
  const [copied, setCopied] = useState(false);
  const link =
    wasShared && sharing?.public_owner_id ? sharedVoicePath(sharing.public_owner_id, voice.voice_id) : null;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (share.isPending) return;
    share.mutate(
      {
        voiceId: voice.voice_id,
        enabled,
        live_moderation_enabled: liveModeration,
        free_users_allowed: freeUsers,
      },
      {
        onSuccess: () => {
          toast({
            title: enabled ? 'Shared in the voice library' : wasShared ? 'No longer shared' : 'Sharing saved',
            variant: 'success',
          });
          onClose();
        },
      },
    );
  };

  const copyLink = async () => {
    if (!link) return;
    await navigator.clipboard?.writeText(new URL(link, window.location.origin).toString());
    setCopied(true);
  };

  return (
    <form className="flex flex-col gap-5" onSubmit={handleSubmit} aria-label={`Share ${voice.name}`}>
      <Switch
        label="Share in the voice library"
        checked={enabled}
        onCheckedChange={setEnabled}
        disabled={share.isPending}
        description={
          wasShared && !enabled
            ? 'People who added it keep it in their list, but cannot use it until you share it again.'
            : 'It is listed under its name and description; its samples are never shared.'
        }
      />
      <Switch
        label="Live moderation"
        checked={liveModeration}
        onCheckedChange={setLiveModeration}
        disabled={share.isPending || !enabled}
        description="What others generate with it is checked as it is made."
      />
      <Switch
        label="Free plans may add it"
        checked={freeUsers}
        onCheckedChange={setFreeUsers}
        disabled={share.isPending || !enabled}
      />
      {link && (
        <div className="flex flex-col gap-2 rounded-lg border border-line bg-subtle/60 p-3 text-sm">
          <span className="font-medium">Its library page</span>
          <div className="flex flex-wrap items-center gap-2">
            <Link to={link} className="min-w-0 flex-1 truncate text-accent hover:underline">
              {link}
            </Link>
            <Button variant="secondary" size="sm" onClick={() => void copyLink()}>
              {copied ? 'Copied' : 'Copy link'}
            </Button>
          </div>
        </div>
      )}
      {share.isError && <FormMessage>{share.error.message}</FormMessage>}
      <FormActions submitLabel="Save" pending={share.isPending} onCancel={onClose} />
    </form>
  );
}
