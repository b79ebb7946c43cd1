import { formatRelativeTime } from '@lsp/contracts';
import { Button, CloseIcon } from '@lsp/ui';
import { useEffect, useId, useRef, useState } from 'react';
import type { SearchHistoryItem } from './search-history';

interface RecentSearchesProps {
  items: SearchHistoryItem[];
  onSelect: (item: SearchHistoryItem) => void;
  onRemove: (id: string) => void;
  onClear: () => void;
}

/** The recent-searches dropdown: up to ten items with relative times; nothing at all when empty. */
export function RecentSearches({ items, onSelect, onRemove, onClear }: RecentSearchesProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // Relative times are re-read each time the list opens, so "Just now" does not go stale.
  const now = open ? Date.now() : 0;

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      // Focus may have been inside the list that is about to disappear.
      toggleRef.current?.focus();
    };
    const onClick = (event: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  if (items.length === 0) return null;
  return (
    <div className="sr-recent" ref={rootRef}>
      <Button
        ref={toggleRef}
        variant="secondary"
        size="sm"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        Recent searches ({items.length})
      </Button>
      {open && (
        <div id={panelId} className="sr-recent__panel" role="region" aria-label="Recent searches">
          <ul className="sr-recent__list">
            {items.map((item) => (
              <li key={item.id} className="sr-recent__item">
                <button
                  type="button"
                  className="sr-recent__load"
                  onClick={() => {
                    setOpen(false);
                    onSelect(item);
                  }}
                >
                  <span className="sr-recent__description">{item.description}</span>
                  <span className="sr-recent__time">{formatRelativeTime(item.timestamp, now)}</span>
                </button>
                <button
                  type="button"
                  className="ui-icon-button sr-recent__remove"
                  aria-label={`Remove ${item.description}`}
                  onClick={() => onRemove(item.id)}
                >
                  <CloseIcon width={16} height={16} />
                </button>
              </li>
            ))}
          </ul>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              onClear();
              setOpen(false);
            }}
          >
            Clear all
          </Button>
        </div>
      )}
    </div>
  );
}
