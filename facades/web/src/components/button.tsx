import type { Ref } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'quiet';

export interface ButtonProps extends Omit<AriaButtonProps, 'className'> {
  variant?: ButtonVariant;
  className?: string;
  /** The button element (e.g. to move focus back to it). */
  ref?: Ref<HTMLButtonElement>;
}

/**
 * react-aria's button (press events, keyboard and focus ring) in the app's styles.
 *
 * Pending is done here rather than by react-aria's `isPending`: that one announces the button through a live
 * region element (`role="img"`) whose `aria-labelledby` names the button's id, and when the button goes away
 * (a dialog that closes, a page that changes) the region points at a missing element for seconds, an axe
 * serious violation. Here a pending button keeps its focus, ignores presses, cannot submit its form, draws the
 * spinner (class `is-pending`: react-aria writes its own `data-pending`, from its own `isPending`) and says
 * "working" in its own name.
 */
export function Button({
  variant = 'secondary',
  className,
  isPending,
  onPress,
  type,
  children,
  ...props
}: ButtonProps) {
  return (
    <AriaButton
      {...props}
      type={isPending ? 'button' : type}
      onPress={isPending ? undefined : onPress}
      className={`btn btn-${variant}${isPending ? ' is-pending' : ''}${className ? ` ${className}` : ''}`}
    >
      {(values) => (
        <>
          {typeof children === 'function' ? children(values) : children}
          {isPending && <span className="visually-hidden"> (working…)</span>}
        </>
      )}
    </AriaButton>
  );
}
