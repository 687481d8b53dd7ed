import { auditJobs } from './audit-jobs.js';
import { runWorkerProcess } from './run-worker.js';

/** A worker process for the audit queue alone (`seo worker audit`). */
await runWorkerProcess('audit-worker', [auditJobs]);
