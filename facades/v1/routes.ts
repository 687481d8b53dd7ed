import { V1ListProjectsDocument } from '../generated/graphql.js';
import { defineRoute, type RestRoute } from '../rest-mapper.js';

/** Surface A: /api/v1, Authorization: Bearer <API_KEY>. */
export const v1Routes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects',
    surface: 'A',
    summary: "List the organization's projects",
    operation: V1ListProjectsDocument,
    map: (data) => ({
      projects: data.projects.map(({ counts, ...p }) => ({ ...p, _count: counts })),
    }),
  }),
];
