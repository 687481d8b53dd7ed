import { Label, Radio, RadioGroup } from 'react-aria-components';

/** "Fetch a URL" or "Paste the file": the two ways each tool takes its input. */
export function InputMode({ value, onChange, pasteLabel }: { value: 'url' | 'paste'; onChange(mode: 'url' | 'paste'): void; pasteLabel: string }) {
  return (
    <RadioGroup className="radio-group" value={value} onChange={(v) => onChange(v as 'url' | 'paste')} orientation="horizontal">
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
