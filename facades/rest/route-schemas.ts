/** JSON Schemas shared by route entries of both surfaces. */

/** What each path parameter names (the OpenAPI documents show it). */
const PARAM_DESCRIPTIONS: Record<string, string> = {
  id: 'Project id.',
  projectId: 'Project id.',
  jobId: 'Job id, as returned by POST .../audit.',
};

export const pathParams = (...names: string[]) =>
  ({
    type: 'object',
    properties: Object.fromEntries(
      names.map((n) => [n, { type: 'string', minLength: 1, maxLength: 200, description: PARAM_DESCRIPTIONS[n] }]),
    ),
    required: names,
    additionalProperties: false,
  }) as const;

export const auditQuery = {
  type: 'object',
  properties: {
    auditId: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'An audit of the project; without it, the latest audit of any status.',
    },
  },
} as const;

/** The keyword cannibalisation report's query (both surfaces: /api and /api/v1). */
export const cannibalisationQuery = {
  type: 'object',
  properties: {
    days: { type: 'string', pattern: '^[0-9]{1,4}$', description: 'The window in days, 1-90 (default 14).' },
    minUrls: { type: 'string', pattern: '^[0-9]{1,4}$', description: 'The fewest site URLs, 2-20 (default 2).' },
    search: { type: 'string', maxLength: 200, description: 'Only terms containing this (case-insensitive).' },
  },
} as const;

/** Its GraphQL variables (keywordCannibalisation), with the defaults the web app's view has. */
export const cannibalisationVariables = (projectId: string, query: Record<string, unknown>) => ({
  projectId,
  days: query.days === undefined ? 14 : Number(query.days),
  minUrls: query.minUrls === undefined ? 2 : Number(query.minUrls),
  search: typeof query.search === 'string' ? query.search : null,
});

export const cancelAuditQuery = {
  type: 'object',
  properties: {
    auditId: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: "The audit to cancel; without it, the project's queued or running audit.",
    },
  },
} as const;

/** "no body": nothing, or an empty JSON object (an absent body reaches validation as null or undefined). */
export const emptyBody = {
  anyOf: [{ type: 'object', maxProperties: 0 }, { type: 'null' }],
  description: 'No body, or an empty JSON object.',
} as const;

/** An audit schedule as a request gives it: fields given replace the stored ones, null resets one to its default. */
export const auditScheduleBody = {
  type: 'object',
  properties: {
    frequency: { type: 'string', enum: ['OFF', 'DAILY', 'WEEKLY', 'MONTHLY'], description: 'OFF runs none.' },
    time: { type: ['string', 'null'], maxLength: 5, description: 'Local time of day, HH:MM (24 h); default 09:00.' },
    timeZone: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 64,
      description: 'IANA time zone name (e.g. Europe/Berlin); default UTC.',
    },
    dayOfWeek: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 7,
      description: '1 = Monday ... 7 = Sunday; required for WEEKLY.',
    },
    dayOfMonth: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 31,
      description: "1-31 (past a month's end: its last day); required for MONTHLY.",
    },
  },
  additionalProperties: false,
  description: 'Scheduled audits (additive to the contract). Omitted fields keep their value.',
} as const;
