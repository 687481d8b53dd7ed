/**
 * Usage changes with the projects, audits and keys: a mutation returning one of them refetches the header's query.
 * The route loader's prefetch and the header pass the same context: urql records an operation's typenames from the
 * operation that fetched it, so a prefetch without them would leave the header's counter stale after a create.
 */
export const USAGE_CONTEXT = {
  additionalTypenames: [
    'Project',
    'DeleteProjectPayload',
    'Audit',
    'StartAuditPayload',
    'ApiKey',
    'CreatedApiKey',
    'Keyword',
  ],
};
