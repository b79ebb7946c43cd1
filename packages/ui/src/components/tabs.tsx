// Tabs on Radix: arrow keys move between tabs, each panel is labelled by its tab.
import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { cx } from './class-names';

export interface TabItem {
  value: string;
  label: ReactNode;
  content: ReactNode;
  /** A count or badge shown after the label. */
  adornment?: ReactNode;
  disabled?: boolean;
}

export interface TabsProps {
  items: readonly TabItem[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  /** Names the tab list for screen readers. */
  label: string;
  className?: string;
}

export function Tabs({ items, value, defaultValue, onValueChange, label, className }: TabsProps) {
  return (
    <RadixTabs.Root value={value} defaultValue={defaultValue ?? items[0]?.value} onValueChange={onValueChange} className={cx('ui-tabs', className)}>
      <RadixTabs.List className="ui-tabs__list" aria-label={label}>
        {items.map((item) => (
          <RadixTabs.Trigger key={item.value} value={item.value} disabled={item.disabled} className="ui-tabs__trigger">
            {item.label}
            {item.adornment}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        <RadixTabs.Content key={item.value} value={item.value} className="ui-tabs__content">
          {item.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
