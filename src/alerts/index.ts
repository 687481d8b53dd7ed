// Alerts: rules per project, evaluated when an audit or a rank check finishes; signed webhooks and e-mails.
export { AlertService, MAX_RULES_PER_PROJECT, type AlertEmailPreference } from './alert.service.js';
export { WebhookService, MAX_ENDPOINTS_PER_PROJECT, type WebhookEndpointView } from './webhook.service.js';
export {
  evaluateAuditRules,
  evaluateRankRules,
  describeRule,
  ALERT_RULE_KINDS,
  type AlertRule,
  type AlertDraft,
  type AlertDetails,
  type AlertRuleKind,
  type AlertChannel,
} from './alert-rules.js';
export type {
  AuditAlertFacts,
  RankAlertFacts,
  CategoryScores,
  NewIssueFact,
  PageRegressionFact,
  VitalPoorFact,
  KeywordCannibalisedFact,
  KeywordMoveFact,
} from './alert-facts.js';
export { AlertFactsReader, type AuditFactsProvider } from './alert-facts-reader.js';
export { poorVitalCrossings, type VitalsRow, type PoorBound } from './alert-vitals.js';
export {
  AlertEvaluationRunner,
  EMAIL_ATTEMPTS,
  EVALUATION_ATTEMPTS,
  type AlertDispatchOptions,
  type EvaluationResult,
} from './alert-evaluation.runner.js';
export { AlertOutbox, type AlertReconcileReport, type AttemptResult } from './alert-outbox.js';
export { WebhookDeliveryRunner, RESPONSE_EXCERPT_BYTES, type DeliveryOutcome } from './webhook-delivery.runner.js';
export { AlertMailRunner, type MailOutcome } from './alert-mail.runner.js';
export { AlertJobRunner, createAlertJobRunner, type AlertJob, type AlertWorkerConfig } from './alert-job-runner.js';
export {
  createAlertTriggers,
  enqueueAuditEvaluation,
  enqueueDelivery,
  deliveryJobId,
  evaluationJobId,
  enqueueRankEvaluation,
  scheduleWeeklyDigest,
  alertRetryOptions,
  DIGEST_SCHEDULER_ID,
  type AlertJobData,
  type AlertQueue,
  type AlertTriggers,
} from './alert-jobs.js';
export {
  signWebhook,
  verifyWebhookSignature,
  SIGNATURE_HEADER,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
} from './webhook-signature.js';
export { WebhookSecretBox, webhookKeyMaterial } from './webhook-secret.js';
export { UnsubscribeTokens } from './unsubscribe-token.js';
export { digestProject, digestPeriod } from './alert-digest.js';
