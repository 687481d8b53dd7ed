import type { Key } from 'react';
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';

export interface SelectOption {
  id: string;
  label: string;
}

/**
 * react-aria's Select with its label, trigger, popover and list in the app's styles: one control for filters and
 * form choices. `value` and `onChange` speak option ids (strings).
 */
export function SelectField({
  label,
  options,
  value,
  onChange,
  className,
  id,
}: {
  label: string;
  options: readonly SelectOption[];
  value: string;
  onChange(id: string): void;
  className?: string;
  id?: string;
}) {
  return (
    <Select
      className={className ? `field ${className}` : 'field'}
      id={id}
      selectedKey={value}
      onSelectionChange={(key: Key | null) => key !== null && onChange(String(key))}
    >
      <Label className="field-label">{label}</Label>
      <Button className="input select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover popover-select">
        <ListBox className="listbox" items={options}>
          {(o) => (
            <ListBoxItem id={o.id} className="listbox-item" textValue={o.label}>
              {o.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
