import { AuditJobRunner, type AuditRunResult } from '../../src/audits/index.js';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import { gql, type TestApp } from './app.js';

/**
 * A project of `siteUrl` created and audited as a user starts it (createProject, startAudit through GraphQL), the
 * audit run to its end in this process by the worker's job runner (no queue), with the configured HTTP client.
 */
export async function auditSiteInProcess(
  t: TestApp,
  cookie: string,
  siteUrl: string,
): Promise<{ projectId: string; auditId: string; outcome: AuditRunResult }> {
  const created = await gql(
    t,
    'mutation($u: String!) { createProject(input: { url: $u }) { id } }',
    { u: siteUrl },
    {
      cookie,
    },
  );
  const projectId = created.body.data.createProject.id as string;
  const started = await gql(
    t,
    'mutation($p: ID!) { startAudit(projectId: $p) { auditId } }',
    { p: projectId },
    {
      cookie,
    },
  );
  const auditId = started.body.data.startAudit.auditId as string;
  const client = createConfiguredSafeHttpClient(t.config);
  try {
    const outcome = await new AuditJobRunner(t.runtime.orm, client, t.config, t.runtime.logger).run(auditId);
    return { projectId, auditId, outcome };
  } finally {
    await client.close();
  }
}
