import { Label, Radio, RadioGroup } from 'react-aria-components';
import { TextField } from '../../components/text-field';

/** "Fetch a URL" or "Paste the file": the two ways each tool takes its input. */
export function InputMode({
  value,
  onChange,
  pasteLabel,
}: {
  value: 'url' | 'paste';
  onChange(mode: 'url' | 'paste'): void;
  pasteLabel: string;
}) {
  return (
    <RadioGroup
      className="radio-group"
      value={value}
      onChange={(v) => onChange(v as 'url' | 'paste')}
      orientation="horizontal"
    >
      <Label className="field-label">Input</Label>
      <div className="radio-row">
        <Radio value="url" className="radio">
          <span className="radio-dot" aria-hidden="true" />
          Fetch a URL
        </Radio>
        <Radio value="paste" className="radio">
          <span className="radio-dot" aria-hidden="true" />
          {pasteLabel}
        </Radio>
      </div>
    </RadioGroup>
  );
}

interface FieldText {
  label: string;
  placeholder?: string;
}

/** The URL field or the pasted-content field, by mode (keyed, so that switching starts the field afresh). */
export function UrlOrPasteField({
  mode,
  url,
  paste,
}: {
  mode: 'url' | 'paste';
  url: FieldText & { name?: string };
  paste: FieldText & { name: string };
}) {
  return mode === 'url' ? (
    <TextField key="url" name={url.name ?? 'url'} label={url.label} isRequired placeholder={url.placeholder} />
  ) : (
    <TextField
      key={paste.name}
      name={paste.name}
      label={paste.label}
      isRequired
      multiline
      rows={10}
      placeholder={paste.placeholder}
    />
  );
}
