/** Preformatted text (a snippet, JSON) that scrolls sideways: focusable, so keyboard users can scroll it too. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <pre className="code" tabIndex={0} role="region" aria-label={label}>
      <code>{code}</code>
    </pre>
  );
}
