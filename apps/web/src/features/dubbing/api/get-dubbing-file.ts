import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { getAudioFile } from '../../player';

/**
 * A file of a dub (its input, a dubbed clip, a render) by its media reference's `url`, fetched with the
 * bearer token (a media element's own request would carry none), for a media element or a download.
 */
export function getDubbingFile(url: string, signal?: AbortSignal): Promise<Blob> {
  return getAudioFile(url, { authenticated: true, signal });
}

/** An object URL of a dub's file for a <video> or <audio>, revoked when it is no longer shown. */
export function useDubbingFileUrl(url: string | undefined): {
  src: string | undefined;
  isError: boolean;
  isPending: boolean;
} {
  const file = useQuery({
    queryKey: ['dubbing', 'file', url ?? ''],
    queryFn: ({ signal }) => getDubbingFile(url ?? '', signal),
    enabled: !!url,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
  });
  const src = useMemo(() => (file.data ? URL.createObjectURL(file.data) : undefined), [file.data]);
  useEffect(() => () => (src ? URL.revokeObjectURL(src) : undefined), [src]);
  return { src, isError: file.isError, isPending: !!url && file.isPending };
}
