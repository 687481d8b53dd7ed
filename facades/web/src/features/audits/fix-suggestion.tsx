import { useEffect, useRef } from 'react';
import { useMutation } from 'urql';
import { Button } from '../../components/button';
import { CodeBlock } from '../../components/code-block';
import { ErrorMessage } from '../../components/status';
import { SuggestFixDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';

/** "Suggest a fix" for one page of an issue: the fix (language model or rules) with where it came from. */
export function FixSuggestion({ projectId, issueId, url }: { projectId: string; issueId: string; url: string }) {
  const [result, suggest] = useMutation(SuggestFixDocument);
  const fix = result.data?.suggestFix;
  const panel = useRef<HTMLElement>(null);
  // The button goes away when the fix arrives: focus moves to the fix instead of falling back to the page.
  useEffect(() => {
    if (fix) panel.current?.focus();
  }, [fix]);
  return (
    <div className="fix">
      {!fix && (
        <Button
          onPress={() => void suggest({ projectId, input: { issueId, url } })}
          isPending={result.fetching}
          aria-label={`Suggest a fix for ${url}`}
        >
          Suggest a fix
        </Button>
      )}
      <ErrorMessage problem={problemOf(result.error)} title="No fix could be suggested" />
      {fix && (
        <section ref={panel} tabIndex={-1} className="fix-panel" aria-label={`Suggested fix for ${url}`}>
          <p className="fix-summary">
            <strong>{fix.summary}</strong>
          </p>
          {fix.steps.length > 0 && (
            <ol className="fix-steps">
              {fix.steps.map((step, i) => (
                <li key={i}>{step}</li>
              ))}
            </ol>
          )}
          {fix.code && <CodeBlock code={fix.code} label="Code to apply" />}
          <p className="muted small">
            {fix.source === 'LLM'
              ? `Written by a language model${fix.model ? ` (${fix.model})` : ''}; check it before applying.`
              : 'Written by the rules engine from the page’s own content.'}
          </p>
        </section>
      )}
    </div>
  );
}
