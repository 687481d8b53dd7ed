import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { AuditCancelled, Job, READ_ERRORS, WRITE_ERRORS, body, errors } from '../openapi/components.js';
import type { Surface } from '../http/http-guard.js';
import { cancelAuditQuery, emptyBody, pathParams } from './route-schemas.js';
import { defineRoute, type RestRoute } from './rest-mapper.js';

/*
 * Routes both surfaces serve alike: each surface's route table names its URL, its project parameter and its own
 * operation document (facades/v1/*.graphql, facades/api/*.graphql); the schemas and the mapping live here once.
 */

type AuditVars = { projectId: string; auditId?: string | null };

/** POST …/audit/cancel: cancels the project's queued or running audit (or the one named by auditId). */
export function cancelAuditRoute<TData extends { cancelAudit: unknown }>(opts: {
  surface: Surface;
  url: string;
  projectParam: 'id' | 'projectId';
  operation: TypedDocumentNode<TData, AuditVars>;
}): RestRoute<TData, AuditVars> {
  return defineRoute<TData, AuditVars>({
    method: 'POST',
    url: opts.url,
    surface: opts.surface,
    summary:
      "Cancel the project's queued or running audit (or the one named by auditId); the pages crawled so far are kept",
    operation: opts.operation,
    schema: {
      params: pathParams(opts.projectParam),
      querystring: cancelAuditQuery,
      body: emptyBody,
      response: { 200: AuditCancelled, ...errors(...WRITE_ERRORS) },
    },
    variables: ({ params, query }) => ({
      projectId: params[opts.projectParam],
      auditId: (query.auditId as string | undefined) ?? null,
    }),
    map: (data) => ({ message: 'Audit cancelled', audit: data.cancelAudit }),
  });
}

/** GET …/jobs/:jobId: a queued audit job's state and progress. */
export function jobRoute<TData extends { job: unknown }>(opts: {
  surface: Surface;
  url: string;
  operation: TypedDocumentNode<TData, { id: string }>;
}): RestRoute<TData, { id: string }> {
  return defineRoute<TData, { id: string }>({
    method: 'GET',
    url: opts.url,
    surface: opts.surface,
    summary: 'State and progress of a queued audit job',
    operation: opts.operation,
    schema: { params: pathParams('jobId'), response: { 200: body({ job: Job }), ...errors(...READ_ERRORS) } },
    variables: ({ params }) => ({ id: params.jobId }),
    map: (data) => ({ job: data.job }),
  });
}
