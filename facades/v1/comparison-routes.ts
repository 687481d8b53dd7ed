import { V1AuditComparisonCsvDocument, V1AuditComparisonDocument } from '../generated/graphql.js';
import { comparisonRoute } from '../rest/comparison-route.js';
import type { StreamRoute } from '../rest/rest-mapper.js';

/** GET /api/v1/projects/:projectId/audit/compare — Surface A (API key). */
export const comparisonRoutes: StreamRoute[] = [
  comparisonRoute({
    surface: 'A',
    url: '/api/v1/projects/:projectId/audit/compare',
    projectParam: 'projectId',
    summary: V1AuditComparisonDocument,
    csv: V1AuditComparisonCsvDocument,
  }),
];
