import {
  ApiCreateProjectDocument,
  ApiDeleteProjectDocument,
  ApiGetProjectDocument,
  ApiListProjectsDocument,
} from '../generated/graphql.js';
import { defineRoute, type RestRoute } from '../rest-mapper.js';

const idParam = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
  required: ['id'],
  additionalProperties: false,
} as const;

/** Surface B: /api, session cookie better-auth.session-token. */
export const apiRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    url: '/api/projects',
    surface: 'B',
    summary: "List the organization's projects",
    operation: ApiListProjectsDocument,
    map: (data) => ({ projects: data.projects }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/projects',
    surface: 'B',
    summary: 'Create a project from a website URL',
    operation: ApiCreateProjectDocument,
    schema: {
      body: {
        type: 'object',
        properties: { url: { type: 'string', minLength: 1, maxLength: 2048 }, name: { type: 'string', maxLength: 100 } },
        required: ['url'],
        additionalProperties: false,
      },
    },
    variables: ({ body }) => ({ input: body as { url: string; name?: string } }),
    map: (data) => ({ project: data.createProject }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/projects/:id',
    surface: 'B',
    summary: 'Project details including latest audit data',
    operation: ApiGetProjectDocument,
    schema: { params: idParam },
    variables: ({ params }) => ({ id: params.id }),
    // latestAudit joins the operation when audits exist in the schema.
    map: ({ project: { counts, ...p } }) => ({ project: { ...p, _count: counts, latestAudit: null } }),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/projects/:id',
    surface: 'B',
    summary: 'Delete a project and all associated data',
    operation: ApiDeleteProjectDocument,
    schema: { params: idParam },
    variables: ({ params }) => ({ id: params.id }),
    map: (data) => ({ success: data.deleteProject.success }),
  }),
];
