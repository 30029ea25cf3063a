import type { ReactNode } from 'react';

/**
 * A table that may be wider than the screen (a phone's 375 pixels): it scrolls sideways on its own,
 * and takes the keyboard's focus so that the arrow keys scroll it too (WCAG 2.1.1; axe-core's
 * scrollable-region-focusable).
 */
export function TableWrap({ children }: { children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard.
    <div className="table-wrap" tabIndex={0}>
      {children}
    </div>
  );
}
