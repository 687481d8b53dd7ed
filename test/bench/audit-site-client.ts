import { fork, type ChildProcess } from 'node:child_process';
import { Agent, get } from 'node:http';
import { pagePath, type SiteSpec } from './audit-site-pages.js';
import type { SiteMessage, SiteRequest, SiteStats } from './audit-site-server.js';
import { benchEntry } from './compiled.js';

/**
 * A site served by a child process: the generated one (audit-site-server.ts) or a folder of files
 * (static-site-server.ts); both answer the same IPC requests.
 */
export class SiteProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    /** The generated site's spec; null for a folder. */
    readonly spec: SiteSpec | null,
  ) {}

  /** The generated site; `prerender: false` renders each page per request (a 100,000-page site would not fit). */
  static start(spec: SiteSpec & { prerender?: boolean }): Promise<SiteProcess> {
    return SiteProcess.fork('audit-site-server', spec, spec);
  }

  /** The files under `root` as they are (index.html for a folder), from memory. */
  static serveDirectory(root: string): Promise<SiteProcess> {
    return SiteProcess.fork('static-site-server', { root }, null);
  }

  private static async fork(entry: string, arg: object, spec: SiteSpec | null): Promise<SiteProcess> {
    const server = benchEntry(entry);
    const child = fork(server.path, [JSON.stringify(arg)], {
      execArgv: server.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`site server exited with code ${code}`)));
      child.on('message', (m: SiteMessage) => {
        if (m.type === 'listening') resolve(m.port);
      });
    });
    return new SiteProcess(child, port, spec);
  }

  /**
   * Requests every page once per host name, a few at a time, so that the server's code is compiled and its
   * memory grown before anything is measured: otherwise whichever crawler goes first pays for the warm-up.
   */
  async warmUp(hosts: string[]): Promise<void> {
    const spec = this.spec;
    if (!spec) throw new Error('warmUp: only the generated site lists its pages');
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const paths = Array.from({ length: spec.pages }, (_, i) => pagePath(spec, i));
    const fetchOne = (host: string, path: string) =>
      new Promise<void>((resolve, reject) => {
        get({ host: '127.0.0.1', port: this.port, path, agent, headers: { host: `${host}:${this.port}` } }, (res) => {
          res.on('end', resolve).on('error', reject).resume();
        }).on('error', reject);
      });
    try {
      for (const host of hosts) {
        let next = 0;
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            while (next < paths.length) await fetchOne(host, paths[next++]);
          }),
        );
      }
    } finally {
      agent.destroy();
    }
    await this.stats(true);
  }

  /** Counters since the last reset; `reset` starts a new measurement window. */
  stats(reset: boolean): Promise<SiteStats> {
    return new Promise((resolve) => {
      const onMessage = (m: SiteMessage) => {
        if (m.type !== 'stats') return;
        this.child.off('message', onMessage);
        const { type: _type, ...stats } = m;
        resolve(stats);
      };
      this.child.on('message', onMessage);
      this.child.send({ type: 'stats', reset } satisfies SiteRequest);
    });
  }

  close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.child.send({ type: 'close' } satisfies SiteRequest);
    });
  }
}
