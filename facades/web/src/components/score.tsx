/** Score bands as Lighthouse colours them: 90-100 good, 50-89 needs improvement, 0-49 poor. */
export function scoreBand(score: number): 'good' | 'average' | 'poor' {
  return score >= 90 ? 'good' : score >= 50 ? 'average' : 'poor';
}

export function ScoreBadge({ score, label }: { score: number | null; label?: string }) {
  if (score === null) return <span className="score score-none">{label ? `${label}: ` : ''}—</span>;
  return (
    <span className={`score score-${scoreBand(score)}`}>
      {label ? `${label}: ` : ''}
      {score}
    </span>
  );
}

/**
 * A score with its change since the previous audit, the change said in words for screen readers. `withheld`: the two
 * audits were scored with different check settings, so no change is shown (a settings change is not progress).
 */
export function ScoreChange({ change, withheld = false }: { change: number | null; withheld?: boolean }) {
  if (withheld)
    return (
      <span className="change change-none" title="Scored with different check settings than the previous audit">
        settings changed
        <span className="visually-hidden">: not compared with the previous audit</span>
      </span>
    );
  if (change === null || change === 0) return change === 0 ? <span className="change change-none">±0</span> : null;
  const up = change > 0;
  return (
    <span className={`change ${up ? 'change-up' : 'change-down'}`}>
      <span aria-hidden="true">{up ? '▲' : '▼'}</span>
      {Math.abs(change)}
      <span className="visually-hidden">
        {up ? ' points better than the previous audit' : ' points worse than the previous audit'}
      </span>
    </span>
  );
}

/** A large circular score for an overview. */
export function ScoreRing({
  score,
  label,
  size = 'large',
}: {
  score: number | null;
  label: string;
  size?: 'large' | 'small';
}) {
  const band = score === null ? 'none' : scoreBand(score);
  const pct = score ?? 0;
  return (
    <figure className={`ring ring-${size} ring-${band}`}>
      <svg viewBox="0 0 36 36" aria-hidden="true" className="ring-svg">
        <circle className="ring-track" cx="18" cy="18" r="15.9155" />
        <circle
          className="ring-value"
          cx="18"
          cy="18"
          r="15.9155"
          strokeDasharray={`${pct} ${100 - pct}`}
          strokeDashoffset="25"
        />
      </svg>
      <span className="ring-number">{score ?? '—'}</span>
      <figcaption className="ring-label">{label}</figcaption>
    </figure>
  );
}
