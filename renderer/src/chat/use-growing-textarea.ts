// A text box that grows with its text, from its rows up to a share of the window's height, then scrolls; it
// shrinks back when the text goes (after sending). Its height is set through the style object (the CSP allows
// that, not style attributes).

import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';

/** The highest the box grows, as a share of the window's height. */
const maxShareOfWindow = 0.4;

export function useGrowingTextarea(ref: RefObject<HTMLTextAreaElement | null>, text: string): void {
  // The window's size: its height sets the limit, its width how many lines the text (or the placeholder) takes.
  const [windowSize, setWindowSize] = useState(() => `${window.innerWidth}x${window.innerHeight}`);
  useEffect(() => {
    const onResize = () => setWindowSize(`${window.innerWidth}x${window.innerHeight}`);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    box.style.height = ''; // the stylesheet's height: the least it has, and what its text is measured in
    const least = box.offsetHeight;
    const wanted = box.scrollHeight + box.offsetHeight - box.clientHeight;
    const limit = Math.max(least, Math.round(window.innerHeight * maxShareOfWindow));
    box.style.height = `${Math.min(Math.max(wanted, least), limit)}px`;
    box.style.overflowY = wanted > limit ? 'auto' : 'hidden';
  }, [ref, text, windowSize]);
}
