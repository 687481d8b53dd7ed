import { rankJobs } from './rank-jobs.js';
import { runWorkerProcess } from './run-worker.js';

/** A worker process for the rank queue alone (`seo worker rank`). */
await runWorkerProcess('rank-worker', [rankJobs]);
