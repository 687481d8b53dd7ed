import {
  ApiCreateProjectDocument,
  ApiDeleteProjectDocument,
  ApiGetProjectDocument,
  ApiGetAuditDocument,
  ApiGetJobDocument,
  ApiListProjectsDocument,
  ApiStartAuditDocument,
  ApiTechnicalDocument,
} from '../generated/graphql.js';
import { auditQuery, pathParams } from '../route-schemas.js';
import { defineRoute, type RestRoute } from '../rest-mapper.js';

const idParam = pathParams('id');

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
    map: ({ project: { counts, ...p } }) => ({ project: { ...p, _count: counts } }),
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
  defineRoute({
    method: 'POST',
    url: '/api/projects/:id/audit',
    surface: 'B',
    summary: 'Start a new SEO audit',
    operation: ApiStartAuditDocument,
    schema: { params: idParam },
    variables: ({ params }) => ({ projectId: params.id }),
    map: (data) => data.startAudit,
  }),
  defineRoute({
    method: 'GET',
    url: '/api/projects/:id/audit',
    surface: 'B',
    summary: 'Latest audit results with all issues',
    operation: ApiGetAuditDocument,
    schema: { params: idParam, querystring: auditQuery },
    variables: ({ params, query }) => ({ projectId: params.id, auditId: (query.auditId as string | undefined) ?? null }),
    map: (data) => ({ audit: data.audit }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/jobs/:jobId',
    surface: 'B',
    summary: 'State and progress of a queued audit job',
    operation: ApiGetJobDocument,
    schema: { params: pathParams('jobId') },
    variables: ({ params }) => ({ id: params.jobId }),
    map: (data) => ({ job: data.job }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/projects/:id/technical',
    surface: 'B',
    summary: 'Technical SEO data including Core Web Vitals history (oldest first)',
    operation: ApiTechnicalDocument,
    schema: { params: idParam, querystring: { type: 'object', properties: { days: { type: 'string', pattern: '^[0-9]{1,4}$' } } } },
    variables: ({ params, query }) => ({ projectId: params.id, days: query.days === undefined ? 90 : Number(query.days) }),
    map: (data) => ({ technical: data.technical }),
  }),
];
