import { competitorJobs } from './competitor-jobs.js';
import { runWorkerProcess } from './run-worker.js';

/** A worker process for the competitor queue alone (`seo worker competitor`). */
await runWorkerProcess('competitor-worker', [competitorJobs]);
