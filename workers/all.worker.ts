import { alertJobs } from './alert-jobs.js';
import { auditJobs } from './audit-jobs.js';
import { competitorJobs } from './competitor-jobs.js';
import { rankJobs } from './rank-jobs.js';
import { runWorkerProcess } from './run-worker.js';

/**
 * One worker process for every queue, as `seo start` and `seo worker` run them: an idle Node process with the
 * ORM, BullMQ and the configuration loaded holds ~85 MB, so one process instead of one per queue keeps the
 * platform's idle memory within its budget (npm run bench -- memory). `seo worker audit rank competitor alert` runs a
 * process per queue instead, for installations that scale or isolate them.
 */
await runWorkerProcess('worker', [auditJobs, rankJobs, competitorJobs, alertJobs]);
