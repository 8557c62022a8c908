import type { StudioProject } from '@parla/contracts';
import { clsx } from 'clsx';
import { useEffect, useState } from 'react';
import { useStudioCover } from '../api/studio-api';

/**
 * A project's cover (the audiobook's cover art), square: the image when the project has one, else a tile
 * with the name's first letter. Decorative beside the name (empty alt), unless `label` names it.
 */
export function ProjectCover({
  project,
  className,
  label,
}: {
  project: Pick<StudioProject, 'project_id' | 'cover_image_url' | 'name'>;
  className?: string;
  label?: string;
}) {
  const cover = useStudioCover(project);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!cover.data) {
      setUrl(null);
      return;
    }
    const made = URL.createObjectURL(cover.data);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [cover.data]);
  const box = clsx('aspect-square shrink-0 overflow-hidden rounded-md border border-line', className);
  if (url) return <img src={url} alt={label ?? ''} className={clsx(box, 'object-cover')} />;
  const tile = clsx(box, 'flex items-center justify-center bg-subtle font-semibold text-fg-muted');
  const letter = project.name.trim().charAt(0).toUpperCase() || '♪';
  if (label)
    return (
      <div role="img" aria-label={label} className={tile}>
        {letter}
      </div>
    );
  return (
    <div aria-hidden="true" className={tile}>
      {letter}
    </div>
  );
}
