import type { HistoryItemResponse } from '@parla/contracts';
import { useMutation } from '@tanstack/react-query';
import { isHttpError } from '../../lib/http-error';
import { useToast } from '../../lib/toasts/use-toast';
import { downloadHistory } from './download-history';

/**
 * Downloads history items (one file, or a zip of several) with the error toasts of history/voices §8: a
 * response of an unknown type fails with its own sentence ("Invalid response type received: …"); a failed
 * request toasts as every HTTP error does.
 */
export function useDownloadHistory() {
  const { toast, toastError } = useToast();
  return useMutation({
    mutationFn: (items: HistoryItemResponse[]) => downloadHistory(items),
    onError: (error) => {
      if (error instanceof Error && !isHttpError(error)) toast({ title: error.message, variant: 'error' });
      else toastError(error);
    },
  });
}
