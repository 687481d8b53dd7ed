import { z } from 'zod';
import { FIX_LIMITS, type FixProposal } from '../seo/fixes/index.js';

/**
 * The answer schema sent as `response_format` (OpenAI structured outputs, strict mode: every property
 * required, optional ones nullable, no length keywords, which strict mode rejects; bounds are in the
 * descriptions and enforced by FIX_ANSWER below).
 */
export const FIX_ANSWER_JSON_SCHEMA = {
  type: 'object',
  properties: {
    summary: {
      type: 'string',
      description: `One sentence saying what to change (at most ${FIX_LIMITS.summaryChars} characters).`,
    },
    steps: {
      type: 'array',
      items: { type: 'string' },
      description: `1 to ${FIX_LIMITS.steps} ordered, concrete steps, each at most ${FIX_LIMITS.stepChars} characters.`,
    },
    code: {
      type: ['string', 'null'],
      description:
        `A snippet to paste (HTML tag, server config, robots.txt lines...), at most ${FIX_LIMITS.codeChars} ` +
        `characters, or null.`,
    },
  },
  required: ['summary', 'steps', 'code'],
  additionalProperties: false,
} as const;

const FIX_ANSWER = z.object({
  summary: z.string().trim().min(1).max(FIX_LIMITS.summaryChars),
  steps: z.array(z.string().trim().min(1).max(FIX_LIMITS.stepChars)).min(1).max(FIX_LIMITS.steps),
  code: z.string().max(FIX_LIMITS.codeChars).nullish(),
});

/** The parts of a chat-completions response we read; everything else is ignored. */
const COMPLETION = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z
            .union([z.string(), z.null(), z.array(z.object({ type: z.string(), text: z.string().optional() }))])
            .optional(),
          refusal: z.string().nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
});

export type ParsedCompletion =
  | { ok: true; proposal: FixProposal; model: string | null }
  | { ok: false; reason: 'invalid-response' | 'refused'; message: string };

/** Reads a chat-completions body: `choices[0].message.content` as a fix (JSON, optionally in a ```json fence). */
export function parseFixCompletion(body: string): ParsedCompletion {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'invalid-response', message: 'the response body is not JSON' };
  }
  const completion = COMPLETION.safeParse(json);
  if (!completion.success)
    return { ok: false, reason: 'invalid-response', message: 'the response is not a chat completion' };
  const choice = completion.data.choices[0];
  if (choice.message.refusal)
    return { ok: false, reason: 'refused', message: `the model refused: ${choice.message.refusal.slice(0, 200)}` };
  const raw = choice.message.content;
  const content = Array.isArray(raw) ? raw.map((part) => part.text ?? '').join('') : (raw ?? '');
  if (content.trim() === '')
    return { ok: false, reason: 'invalid-response', message: 'the model answered with no content' };

  const answer = parseAnswerJson(content);
  if (answer === undefined) {
    const truncated = choice.finish_reason === 'length' ? ' (cut off at max_tokens)' : '';
    return { ok: false, reason: 'invalid-response', message: `the model's answer is not JSON${truncated}` };
  }
  const fix = FIX_ANSWER.safeParse(answer);
  if (!fix.success) {
    const issue = fix.error.issues[0];
    return {
      ok: false,
      reason: 'invalid-response',
      message: `the model's answer does not match the fix schema: ${issue.path.join('.') || '(root)'} ${issue.message}`,
    };
  }
  const proposal: FixProposal = { summary: fix.data.summary, steps: fix.data.steps };
  const code = fix.data.code?.trim();
  if (code) proposal.code = code;
  return { ok: true, proposal, model: completion.data.model?.trim() || null };
}

/** JSON from the content: as is, inside a ```json fence, or the outermost {...} of chatty output. */
function parseAnswerJson(content: string): unknown {
  const candidates = [content.trim()];
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(content);
  if (fenced) candidates.push(fenced[1].trim());
  const first = content.indexOf('{');
  const last = content.lastIndexOf('}');
  if (first !== -1 && last > first) candidates.push(content.slice(first, last + 1));
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next form
    }
  }
  return undefined;
}
