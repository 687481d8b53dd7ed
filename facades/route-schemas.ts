/** JSON Schemas shared by route entries of both surfaces. */
export const pathParams = (...names: string[]) =>
  ({
    type: 'object',
    properties: Object.fromEntries(names.map((n) => [n, { type: 'string', minLength: 1, maxLength: 200 }])),
    required: names,
    additionalProperties: false,
  }) as const;

export const auditQuery = {
  type: 'object',
  properties: { auditId: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

/** "no body": nothing, or an empty JSON object. */
export const emptyBody = { type: 'object', maxProperties: 0 } as const;
