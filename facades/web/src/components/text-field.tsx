import type { FormEvent, ReactNode } from 'react';
import {
  FieldError,
  Input,
  Label,
  Text,
  TextArea,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
} from 'react-aria-components';

export interface TextFieldProps extends Omit<AriaTextFieldProps, 'className' | 'children'> {
  label: string;
  description?: ReactNode;
  /** A server-side error for this field; client-side checks (required, e-mail, length) show on their own. */
  errorMessage?: string | null;
  placeholder?: string;
  multiline?: boolean;
  rows?: number;
  className?: string;
}

/**
 * react-aria re-validates a field on its native 'change' event, which a text input fires on blur. An error shown
 * under a field would then vanish when the user clicks "Submit" (the click blurs the field), the button would
 * move up under the pointer and the click be lost. While a field shows an error, each edit re-validates it.
 */
function revalidateWhileInvalid(event: FormEvent<HTMLInputElement | HTMLTextAreaElement>) {
  const field = event.currentTarget;
  if (field.getAttribute('aria-invalid') === 'true') field.dispatchEvent(new Event('change', { bubbles: true }));
}

/** A labelled text input whose description and error are tied to it for screen readers. */
export function TextField({
  label,
  description,
  errorMessage,
  placeholder,
  multiline,
  rows = 8,
  className,
  ...props
}: TextFieldProps) {
  return (
    <AriaTextField
      {...props}
      isInvalid={errorMessage ? true : props.isInvalid}
      className={`field${className ? ` ${className}` : ''}`}
    >
      <Label className="field-label">{label}</Label>
      {multiline ? (
        <TextArea
          className="input textarea"
          rows={rows}
          placeholder={placeholder}
          spellCheck={false}
          onInput={revalidateWhileInvalid}
        />
      ) : (
        <Input className="input" placeholder={placeholder} onInput={revalidateWhileInvalid} />
      )}
      {description && (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      )}
      <FieldError className="field-error">{errorMessage ?? undefined}</FieldError>
    </AriaTextField>
  );
}
