import {
  V1CancelAuditDocument,
  V1GetAuditDocument,
  V1GetJobDocument,
  V1KeywordCannibalisationDocument,
  V1KeywordsDocument,
  V1ListProjectsDocument,
  V1SetAuditScheduleDocument,
  type AuditScheduleInput,
  V1StartAuditDocument,
} from '../generated/graphql.js';
import {
  auditQuery,
  auditScheduleBody,
  cannibalisationQuery,
  cannibalisationVariables,
  emptyBody,
  pathParams,
} from '../rest/route-schemas.js';
import {
  Audit,
  AuditSchedule,
  AuditStarted,
  Keyword,
  KeywordCannibalisation,
  ProjectV1,
  READ_ERRORS,
  WRITE_ERRORS,
  arrayOf,
  body,
  errors,
} from '../openapi/components.js';
import { defineRoute, type RestRoute } from '../rest/rest-mapper.js';
import { cancelAuditRoute, jobRoute } from '../rest/shared-routes.js';

/** Surface A: /api/v1, Authorization: Bearer <API_KEY>. */
export const v1Routes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects',
    surface: 'A',
    summary: "List the organization's projects",
    operation: V1ListProjectsDocument,
    schema: { response: { 200: body({ projects: arrayOf(ProjectV1) }), ...errors(401, 403, 429, 500) } },
    // The operation aliases counts as _count: the data already has the REST shape.
    map: (data) => data,
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:projectId/audit-schedule',
    surface: 'A',
    summary: "Set the project's audit schedule (fields given replace the stored ones)",
    operation: V1SetAuditScheduleDocument,
    schema: {
      params: pathParams('projectId'),
      body: auditScheduleBody,
      response: { 200: body({ auditSchedule: AuditSchedule }), ...errors(...WRITE_ERRORS) },
    },
    variables: ({ params, body }) => ({ id: params.projectId, input: (body ?? {}) as AuditScheduleInput }),
    map: (data) => ({ auditSchedule: data.updateProject.auditSchedule }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:projectId/audit',
    surface: 'A',
    summary: 'The latest audit of a project (or the one named by auditId), with its issues',
    operation: V1GetAuditDocument,
    schema: {
      params: pathParams('projectId'),
      querystring: auditQuery,
      response: { 200: body({ audit: Audit }), ...errors(...READ_ERRORS) },
    },
    variables: ({ params, query }) => ({
      projectId: params.projectId,
      auditId: (query.auditId as string | undefined) ?? null,
    }),
    map: (data) => ({ audit: data.audit }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:projectId/audit',
    surface: 'A',
    status: 202,
    summary: 'Queue an audit (returns the active one if an audit is already queued or running)',
    operation: V1StartAuditDocument,
    schema: {
      params: pathParams('projectId'),
      body: emptyBody,
      response: { 202: AuditStarted, ...errors(...WRITE_ERRORS) },
    },
    variables: ({ params }) => ({ projectId: params.projectId }),
    map: (data) => data.startAudit,
  }),
  cancelAuditRoute({
    surface: 'A',
    url: '/api/v1/projects/:projectId/audit/cancel',
    projectParam: 'projectId',
    operation: V1CancelAuditDocument,
  }),
  jobRoute({ surface: 'A', url: '/api/v1/jobs/:jobId', operation: V1GetJobDocument }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:projectId/keywords',
    surface: 'A',
    summary: 'Tracked keywords with their latest ranking',
    operation: V1KeywordsDocument,
    schema: {
      params: pathParams('projectId'),
      response: { 200: body({ keywords: arrayOf(Keyword) }), ...errors(...READ_ERRORS) },
    },
    variables: ({ params }) => ({ projectId: params.projectId }),
    map: (data) => ({ keywords: data.keywords }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:projectId/keywords/cannibalisation',
    surface: 'A',
    summary: "Keywords for which two or more of the site's URLs ranked within the window",
    operation: V1KeywordCannibalisationDocument,
    schema: {
      params: pathParams('projectId'),
      querystring: cannibalisationQuery,
      response: { 200: body({ keywords: arrayOf(KeywordCannibalisation) }), ...errors(...READ_ERRORS) },
    },
    variables: ({ params, query }) => cannibalisationVariables(params.projectId, query),
    map: (data) => ({ keywords: data.keywordCannibalisation }),
  }),
];
