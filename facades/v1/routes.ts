import {
  V1CancelAuditDocument,
  V1GetAuditDocument,
  V1GetJobDocument,
  V1KeywordsDocument,
  V1ListProjectsDocument,
  V1SetAuditScheduleDocument,
  type AuditScheduleInput,
  V1StartAuditDocument,
} from '../generated/graphql.js';
import { auditQuery, auditScheduleBody, cancelAuditQuery, emptyBody, pathParams } from '../rest/route-schemas.js';
import {
  Audit,
  AuditCancelled,
  AuditSchedule,
  AuditStarted,
  Job,
  Keyword,
  ProjectV1,
  READ_ERRORS,
  WRITE_ERRORS,
  arrayOf,
  body,
  errors,
} from '../openapi/components.js';
import { defineRoute, type RestRoute } from '../rest/rest-mapper.js';

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
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:projectId/audit/cancel',
    surface: 'A',
    summary:
      "Cancel the project's queued or running audit (or the one named by auditId); the pages crawled so far are kept",
    operation: V1CancelAuditDocument,
    schema: {
      params: pathParams('projectId'),
      querystring: cancelAuditQuery,
      body: emptyBody,
      response: { 200: AuditCancelled, ...errors(...WRITE_ERRORS) },
    },
    variables: ({ params, query }) => ({
      projectId: params.projectId,
      auditId: (query.auditId as string | undefined) ?? null,
    }),
    map: (data) => ({ message: 'Audit cancelled', audit: data.cancelAudit }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/jobs/:jobId',
    surface: 'A',
    summary: 'State and progress of a queued audit job',
    operation: V1GetJobDocument,
    schema: { params: pathParams('jobId'), response: { 200: body({ job: Job }), ...errors(...READ_ERRORS) } },
    variables: ({ params }) => ({ id: params.jobId }),
    map: (data) => ({ job: data.job }),
  }),
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
];
