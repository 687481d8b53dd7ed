import { ApiAuditComparisonCsvDocument, ApiAuditComparisonDocument } from '../generated/graphql.js';
import { comparisonRoute } from '../rest/comparison-route.js';
import type { StreamRoute } from '../rest/rest-mapper.js';

/** GET /api/projects/:id/audit/compare — Surface B (session cookie). */
export const comparisonRoutes: StreamRoute[] = [
  comparisonRoute({
    surface: 'B',
    url: '/api/projects/:id/audit/compare',
    projectParam: 'id',
    summary: ApiAuditComparisonDocument,
    csv: ApiAuditComparisonCsvDocument,
  }),
];
