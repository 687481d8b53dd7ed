import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfoType } from '../audits/graphql.js';

export enum AlertRuleKindEnum {
  SCORE_DROP = 'SCORE_DROP',
  NEW_ISSUES = 'NEW_ISSUES',
  PAGE_REGRESSION = 'PAGE_REGRESSION',
  KEYWORD_DROP = 'KEYWORD_DROP',
  KEYWORD_LEFT_TOP10 = 'KEYWORD_LEFT_TOP10',
  VITAL_POOR = 'VITAL_POOR',
  KEYWORD_CANNIBALISED = 'KEYWORD_CANNIBALISED',
}
registerEnumType(AlertRuleKindEnum, {
  name: 'AlertRuleKind',
  description:
    'What an alert rule watches; audit rules are evaluated when an audit completes, keyword rules after a rank check.',
  valuesConfig: {
    SCORE_DROP: { description: 'A score (category) drops by at least `points` against the previous completed audit.' },
    NEW_ISSUES: { description: 'Issues new since the previous completed audit, of at least `minSeverity`.' },
    PAGE_REGRESSION: { description: 'A page that answered 200 now answers 4xx/5xx, or was indexable and is noindex.' },
    KEYWORD_DROP: { description: 'A keyword drops at least `positions` places (or out of the checked results).' },
    KEYWORD_LEFT_TOP10: { description: 'A keyword that ranked 1-10 ranks lower, or not at all.' },
    VITAL_POOR: { description: 'A Core Web Vital of a page crosses into "poor" (the PERF_* thresholds).' },
    KEYWORD_CANNIBALISED: {
      description: 'Two or more of the site’s URLs rank for a keyword at its latest check, fewer at the one before.',
    },
  },
});

export enum AlertScoreCategoryEnum {
  OVERALL = 'OVERALL',
  META = 'META',
  CONTENT = 'CONTENT',
  LINKS = 'LINKS',
  TECHNICAL = 'TECHNICAL',
  PERFORMANCE = 'PERFORMANCE',
}
registerEnumType(AlertScoreCategoryEnum, {
  name: 'AlertScoreCategory',
  description: 'The score a SCORE_DROP rule watches.',
});

export enum AlertSeverityEnum {
  CRITICAL = 'CRITICAL',
  WARNING = 'WARNING',
  NOTICE = 'NOTICE',
}
registerEnumType(AlertSeverityEnum, {
  name: 'AlertSeverity',
  description: 'The least severe new issue a NEW_ISSUES rule counts (WARNING counts warnings and critical issues).',
});

export enum AlertChannelEnum {
  WEBHOOK = 'WEBHOOK',
  EMAIL = 'EMAIL',
}
registerEnumType(AlertChannelEnum, {
  name: 'AlertChannel',
  description:
    'WEBHOOK: a signed POST to each enabled endpoint of the project. EMAIL: a message to each member who chose ' +
    "the project's alerts by e-mail.",
});

@ObjectType('AlertRule', { description: 'A rule of a project that raises an alert when what it watches happens.' })
export class AlertRuleType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: string;
  @Field(() => AlertRuleKindEnum) kind!: AlertRuleKindEnum;
  @Field(() => AlertScoreCategoryEnum, { nullable: true, description: 'SCORE_DROP only: the score watched.' })
  category!: AlertScoreCategoryEnum | null;
  @Field(() => Int, { nullable: true, description: 'SCORE_DROP only: the smallest drop in points (1-100).' })
  points!: number | null;
  @Field(() => AlertSeverityEnum, { nullable: true, description: 'NEW_ISSUES only: the least severe issue counted.' })
  minSeverity!: AlertSeverityEnum | null;
  @Field(() => Int, { nullable: true, description: 'KEYWORD_DROP only: the smallest drop in positions (1-100).' })
  positions!: number | null;
  @Field(() => ID, {
    nullable: true,
    description:
      "SCORE_DROP and NEW_ISSUES: the project's segment watched (the segment's scores and the issues new on its " +
      'URLs); null: the whole site.',
  })
  segmentId!: string | null;
  @Field(() => String, { nullable: true, description: "The watched segment's name." })
  segmentName!: string | null;
  @Field(() => Boolean, { description: 'A disabled rule raises nothing.' }) enabled!: boolean;
  @Field(() => [AlertChannelEnum], { description: 'Where its alerts go; at least one.' }) channels!: AlertChannelEnum[];
  @Field(() => String, { description: 'What the rule watches, in one sentence.' }) description!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@InputType('AlertRuleInput', {
  description: 'A rule: its kind, the parameter the kind takes (leave the others out) and its channels.',
})
export class AlertRuleInput {
  @Field(() => AlertRuleKindEnum) kind!: AlertRuleKindEnum;
  @Field(() => AlertScoreCategoryEnum, { nullable: true, description: 'SCORE_DROP: default OVERALL.' })
  category?: AlertScoreCategoryEnum | null;
  @Field(() => Int, { nullable: true, description: 'SCORE_DROP: required, 1-100.' }) points?: number | null;
  @Field(() => AlertSeverityEnum, { nullable: true, description: 'NEW_ISSUES: default CRITICAL.' })
  minSeverity?: AlertSeverityEnum | null;
  @Field(() => Int, { nullable: true, description: 'KEYWORD_DROP: required, 1-100.' }) positions?: number | null;
  @Field(() => ID, {
    nullable: true,
    description:
      "SCORE_DROP, NEW_ISSUES: one of the project's segments to watch instead of the whole site (NOT_FOUND for " +
      "another project's). A segment a rule watches cannot be deleted.",
  })
  segmentId?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Default true.' }) enabled?: boolean | null;
  @Field(() => [AlertChannelEnum], { description: 'At least one.' }) channels!: AlertChannelEnum[];
}

export enum WebhookDeliveryStatusEnum {
  PENDING = 'PENDING',
  DELIVERED = 'DELIVERED',
  ABANDONED = 'ABANDONED',
  SKIPPED = 'SKIPPED',
}
registerEnumType(WebhookDeliveryStatusEnum, {
  name: 'WebhookDeliveryStatus',
  description:
    'Where the delivery of an alert to an endpoint stands. Deliveries are recorded in the database: an outage of ' +
    'the queue delays them, it does not lose them.',
  valuesConfig: {
    PENDING: { description: 'Another attempt is owed, at `nextAttemptAt` (late if the queue was away).' },
    DELIVERED: { description: 'An attempt was answered 2xx; it is not sent again (a redelivery is a new delivery).' },
    ABANDONED: {
      description: 'Given up, for the `reason` given: its attempts ran out, or the target refused it for good.',
    },
    SKIPPED: { description: 'No longer sent (the endpoint was disabled, or the alert is gone), for the `reason`.' },
  },
});

@ObjectType('WebhookDelivery', {
  description:
    'One attempt to deliver an alert to a webhook endpoint, as the endpoint answered it, with where its delivery ' +
    'stands now (`status`, `reason`).',
})
export class WebhookDeliveryType {
  @Field(() => ID) id!: string;
  @Field(() => ID) endpointId!: string;
  @Field(() => ID, { description: 'The alert sent (the X-Event-Id header; the same on every attempt).' })
  eventId!: string;
  @Field(() => String, { description: 'alert.score_drop, alert.new_issues, … or test.' }) eventType!: string;
  @Field(() => Int, { description: 'The attempt number within its delivery (1 first).' }) attempt!: number;
  @Field(() => Boolean, { description: 'A redelivery or a test event asked for by a person.' }) manual!: boolean;
  @Field(() => Boolean, { description: 'The endpoint answered 2xx.' }) succeeded!: boolean;
  @Field(() => Int, { nullable: true, description: 'The HTTP status; null when no answer came.' })
  statusCode!: number | null;
  @Field(() => String, { nullable: true, description: 'Why the attempt failed; null when it succeeded.' })
  error!: string | null;
  @Field(() => Int, { description: 'From sending to the end of the answer, in milliseconds.' }) latencyMs!: number;
  @Field(() => String, { nullable: true, description: 'The first kilobyte of the answer, as text.' })
  responseExcerpt!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => WebhookDeliveryStatusEnum, {
    nullable: true,
    description:
      'Where the delivery this attempt belongs to stands now (the same on each of its attempts); null for attempts ' +
      'logged before deliveries were recorded.',
  })
  status!: `${WebhookDeliveryStatusEnum}` | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Why the delivery was ABANDONED (e.g. "Gave up after 6 attempts; the last: The endpoint answered HTTP 500", ' +
      '"Not retried: Refused: …") or SKIPPED; null otherwise.',
  })
  reason!: string | null;
  @Field(() => Date, { nullable: true, description: 'When the next attempt is due, while the delivery is PENDING.' })
  nextAttemptAt!: Date | null;
}

@ObjectType('WebhookDeliveryConnection')
export class WebhookDeliveryConnection {
  @Field(() => [WebhookDeliveryType], { description: 'Newest first.' }) nodes!: WebhookDeliveryType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int) totalCount!: number;
}

@ObjectType('WebhookEndpoint', {
  description: "A URL that receives a project's alerts as signed JSON (X-Signature: t=<unix>,v1=<HMAC-SHA256>).",
})
export class WebhookEndpointType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: string;
  @Field(() => String) url!: string;
  @Field(() => String, { description: 'What the endpoint is for; may be empty.' }) description!: string;
  @Field(() => Boolean, { description: 'A disabled endpoint receives no alerts (redeliveries and tests still go).' })
  enabled!: boolean;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { description: 'When its signing secret was made (creation or the latest rotation).' })
  secretRotatedAt!: Date;
  @Field(() => WebhookDeliveryType, { nullable: true, description: 'Its latest delivery attempt.' })
  lastDelivery!: WebhookDeliveryType | null;
}

@ObjectType('WebhookEndpointWithSecret', {
  description: 'An endpoint and its signing secret: shown here once, never again (rotate it to get a new one).',
})
export class WebhookEndpointWithSecretType {
  @Field(() => WebhookEndpointType) endpoint!: WebhookEndpointType;
  @Field(() => String, { description: 'The HMAC-SHA256 key of the X-Signature header (whsec_…).' }) secret!: string;
}

@InputType('CreateWebhookEndpointInput')
export class CreateWebhookEndpointInput {
  @Field(() => String, {
    description: 'An absolute http(s) URL; private addresses are refused unless SAFE_HTTP_ALLOW admits them.',
  })
  url!: string;
  @Field(() => String, { nullable: true, description: 'At most 200 characters.' }) description?: string | null;
}

@InputType('UpdateWebhookEndpointInput', { description: 'The fields to change; the others stay.' })
export class UpdateWebhookEndpointInput {
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
}

@ObjectType('WebhookDeliveryQueued', { description: 'A delivery queued for an alert worker; its attempt is logged.' })
export class WebhookDeliveryQueuedType {
  @Field(() => String) message!: string;
  @Field(() => ID) eventId!: string;
  @Field(() => ID) endpointId!: string;
  @Field(() => ID) jobId!: string;
}

@ObjectType('AlertEmailPreference', { description: "The signed-in member's alert e-mails for one project." })
export class AlertEmailPreferenceType {
  @Field(() => ID) projectId!: string;
  @Field(() => String, { description: 'Where the e-mails go: the member’s address.' }) email!: string;
  @Field(() => Boolean, { description: "Each alert of the project's EMAIL rules, as it happens." })
  immediate!: boolean;
  @Field(() => Boolean, {
    description: 'A weekly digest: score trend, new critical issues and keyword movers of the project.',
  })
  weeklyDigest!: boolean;
  @Field(() => Boolean, { description: 'False when the server has no SMTP_URL: nothing is sent until it has one.' })
  mailConfigured!: boolean;
}

@InputType('AlertEmailPreferenceInput', { description: 'The choices to change; the others stay.' })
export class AlertEmailPreferenceInput {
  @Field(() => Boolean, { nullable: true }) immediate?: boolean | null;
  @Field(() => Boolean, { nullable: true }) weeklyDigest?: boolean | null;
}

@ObjectType('AlertUnsubscribePayload')
export class AlertUnsubscribePayload {
  @Field(() => String) message!: string;
  @Field(() => Int, { description: 'Projects whose alert e-mails were turned off (0: none were on).' })
  projects!: number;
}
