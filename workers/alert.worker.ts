import { alertJobs } from './alert-jobs.js';
import { runWorkerProcess } from './run-worker.js';

/** A worker process for the alert queue alone (`seo worker alert`). */
await runWorkerProcess('alert-worker', [alertJobs]);
