import type { DetectedLanguage } from '@parla/contracts/language-detection';
import { useEffect, useState } from 'react';

/** How long typing must pause before the text's language is detected again. */
export const DETECTION_DELAY_MS = 700;

/**
 * The language of a text, detected offline once typing pauses (debounced); null until then. The detector
 * and its data load on first use, in a chunk of their own.
 */
export function useDetectedLanguage(text: string): DetectedLanguage | null {
  const [detected, setDetected] = useState<DetectedLanguage | null>(null);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      void import('@parla/contracts/language-detection').then(({ detectLanguage }) => {
        if (current) setDetected(detectLanguage(text));
      });
    }, DETECTION_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text]);
  return detected;
}
