import type { ReactNode } from 'react';

/**
 * A table's horizontal scroll box: a labelled region that takes keyboard focus, so that a keyboard user can scroll a
 * table wider than a narrow screen (axe: scrollable-region-focusable).
 */
export function TableWrap({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `table-wrap ${className}` : 'table-wrap'} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
