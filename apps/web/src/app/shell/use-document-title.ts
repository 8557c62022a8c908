import { useEffect } from 'react';
import { useMatches } from 'react-router';
import type { RouteHandle } from '../route-handle';

function hasTitle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as RouteHandle).title === 'string';
}

/** The document title of a page: the product name alone on the landing page, else "<page> · Parla". */
export function getDocumentTitle(pageTitle: string | undefined, pathname: string): string {
  if (!pageTitle || pathname === '/') return 'Parla';
  return `${pageTitle} · Parla`;
}

/** Keeps document.title in step with the deepest matched route's title. */
export function useDocumentTitle(): void {
  const matches = useMatches();
  const last = matches[matches.length - 1];
  const title = [...matches].reverse().find((match) => hasTitle(match.handle))?.handle;
  const text = getDocumentTitle(hasTitle(title) ? title.title : undefined, last?.pathname ?? '/');
  useEffect(() => {
    document.title = text;
  }, [text]);
}
