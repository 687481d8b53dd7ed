import { useState } from 'react';
import { Button } from '../../components/button';

/** Copies a secret to the clipboard and says so (in a live region) for a few seconds. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
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
            ? 'Copying failed: select the secret and copy it by hand.'
            : ''}
      </span>
    </span>
  );
}
