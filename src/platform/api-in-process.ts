import type { Supervisor } from './supervisor.js';

/**
 * How `seo start` runs the API in its own process instead of a child (src/cli/process-commands.ts): it loads the
 * API entry (facades/main) by path, as it would spawn it, and calls the entry's `runApiProcess` with these
 * options. The entry runs itself when it is the process's main module (`seo serve`, a supervisor's child).
 *
 * Why: a supervisor process that only watches its children is a whole Node process (~40 MB resident, most of it the
 * node binary's pages) for nothing else; the API process supervising the worker saves it (docs/operations.md#memory).
 */
export interface ApiProcessOptions {
  /** Processes that run beside the API (`seo start`: the worker): stopped with it, and it stops with them. */
  companions?: Pick<Supervisor, 'stop' | 'done'>;
  /** Called once the API listens, with its public URL. */
  onListening?: (url: string) => void;
}

/** The API entry's export that `seo start` calls. */
export type RunApiProcess = (options?: ApiProcessOptions) => Promise<void>;
