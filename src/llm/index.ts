/** Language-model adapter: fix suggestions from any OpenAI-compatible chat-completions endpoint. */
export { createLlmClient } from './openai-compatible.client.js';
export { buildFixMessages, FIX_PROMPT_LIMITS } from './fix-prompt.js';
export { FIX_ANSWER_JSON_SCHEMA, parseFixCompletion, type ParsedCompletion } from './fix-answer.js';
export { isSecretName, redactText, redactUrl, redactValue, REDACTED } from './secret-redaction.js';
export {
  LlmError,
  type ChatMessage,
  type FetchLike,
  type LlmClient,
  type LlmClientOptions,
  type LlmConfig,
  type LlmErrorReason,
  type LlmFixResult,
} from './llm.types.js';
