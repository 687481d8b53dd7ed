import { badInput, type ErrorDetail } from '../platform/errors.js';
import type { IssueSeverityName } from './alert-facts.js';
import {
  ALERT_CHANNELS,
  ALERT_RULE_KINDS,
  ALERT_SEVERITIES,
  SCORE_CATEGORIES,
  SEGMENT_RULE_KINDS,
  type AlertChannel,
  type AlertRule,
  type AlertRuleKind,
  type AlertScoreCategory,
} from './alert-rules.js';

/** A rule as a client sends it (GraphQL input); anything may be missing or wrong. */
export interface AlertRuleInputData {
  kind?: unknown;
  category?: unknown;
  points?: unknown;
  minSeverity?: unknown;
  positions?: unknown;
  segmentId?: unknown;
  enabled?: unknown;
  channels?: unknown;
}

/** The columns of a valid rule. */
export type AlertRuleFields = Pick<
  AlertRule,
  'kind' | 'category' | 'points' | 'minSeverity' | 'positions' | 'segmentId' | 'enabled' | 'channels'
>;

/** Which parameter each kind takes; the others must be left out. */
const PARAMETERS: Record<AlertRuleKind, ('category' | 'points' | 'minSeverity' | 'positions')[]> = {
  SCORE_DROP: ['category', 'points'],
  NEW_ISSUES: ['minSeverity'],
  PAGE_REGRESSION: [],
  KEYWORD_DROP: ['positions'],
  KEYWORD_LEFT_TOP10: [],
  VITAL_POOR: [],
  KEYWORD_CANNIBALISED: [],
};

const given = (v: unknown) => v !== undefined && v !== null;
const oneOf = <T extends string>(list: readonly T[], v: unknown): v is T =>
  typeof v === 'string' && (list as readonly string[]).includes(v);
const wholeIn = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/**
 * A rule's fields from a client's input, or BAD_USER_INPUT naming every field at fault: SCORE_DROP takes a category
 * (default OVERALL) and points (1-100), NEW_ISSUES a minimum severity (default CRITICAL), KEYWORD_DROP positions
 * (1-100); the other kinds take no parameter. SCORE_DROP and NEW_ISSUES may name a segment (segmentId: the caller
 * checks it is the project's). At least one channel.
 */
export function parseAlertRuleInput(input: AlertRuleInputData): AlertRuleFields {
  const details: ErrorDetail[] = [];
  const fail = (path: string, message: string) => details.push({ path, message });
  if (!oneOf(ALERT_RULE_KINDS, input.kind)) {
    throw badInput(`kind must be one of ${ALERT_RULE_KINDS.join(', ')}`, [{ path: 'kind', message: 'invalid' }]);
  }
  const kind = input.kind;
  for (const field of ['category', 'points', 'minSeverity', 'positions'] as const) {
    if (given(input[field]) && !PARAMETERS[kind].includes(field)) fail(field, `does not apply to ${kind} rules`);
  }
  let category: AlertScoreCategory | null = null;
  let points: number | null = null;
  let minSeverity: IssueSeverityName | null = null;
  let positions: number | null = null;
  if (kind === 'SCORE_DROP') {
    category = 'OVERALL';
    if (given(input.category)) {
      if (oneOf(SCORE_CATEGORIES, input.category)) category = input.category;
      else fail('category', `must be one of ${SCORE_CATEGORIES.join(', ')}`);
    }
    if (wholeIn(input.points, 1, 100)) points = input.points;
    else fail('points', 'must be a whole number of points from 1 to 100');
  }
  if (kind === 'NEW_ISSUES') {
    minSeverity = 'CRITICAL';
    if (given(input.minSeverity)) {
      if (oneOf(ALERT_SEVERITIES, input.minSeverity)) minSeverity = input.minSeverity;
      else fail('minSeverity', `must be one of ${ALERT_SEVERITIES.join(', ')}`);
    }
  }
  if (kind === 'KEYWORD_DROP') {
    if (wholeIn(input.positions, 1, 100)) positions = input.positions;
    else fail('positions', 'must be a whole number of positions from 1 to 100');
  }
  let segmentId: string | null = null;
  if (given(input.segmentId)) {
    if (!SEGMENT_RULE_KINDS.includes(kind))
      fail('segmentId', `does not apply to ${kind} rules (only ${SEGMENT_RULE_KINDS.join(' and ')} watch a segment)`);
    else if (typeof input.segmentId !== 'string' || !input.segmentId) fail('segmentId', 'must be a segment id');
    else segmentId = input.segmentId;
  }
  const channels = Array.isArray(input.channels) ? [...new Set(input.channels as unknown[])] : [];
  if (!channels.length || !channels.every((c) => oneOf(ALERT_CHANNELS, c)))
    fail('channels', `must name at least one of ${ALERT_CHANNELS.join(', ')}`);
  if (given(input.enabled) && typeof input.enabled !== 'boolean') fail('enabled', 'must be true or false');
  if (details.length) {
    throw badInput(details.map((d) => `${d.path} ${d.message}`).join('; '), details);
  }
  return {
    kind,
    category,
    points,
    minSeverity,
    positions,
    segmentId,
    enabled: input.enabled !== false,
    channels: (channels as AlertChannel[]).sort(),
  };
}
