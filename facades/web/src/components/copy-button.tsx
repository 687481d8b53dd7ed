import { useState } from 'react';
import { Button } from './button';

/**
 * Copies a text to the clipboard and says so (in a live region) for a few seconds; `what` names it in the message
 * shown when the browser refuses ("select the key and copy it by hand").
 */
export function CopyButton({ text, label = 'Copy', what = 'text' }: { text: string; label?: string; what?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 4000);
  }
  return (
    <span className="copy">
      <Button onPress={() => void copy()}>{label}</Button>
      <span role="status" className="small muted">
        {state === 'copied'
          ? 'Copied to the clipboard.'
          : state === 'failed'
            ? `Copying failed: select the ${what} and copy it by hand.`
            : ''}
      </span>
    </span>
  );
}
