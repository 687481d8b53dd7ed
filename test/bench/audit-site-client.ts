import { fork, type ChildProcess } from 'node:child_process';
import { Agent, get } from 'node:http';
import { pagePath, type SiteSpec } from './audit-site-pages.js';
import type { SiteMessage, SiteRequest, SiteStats } from './audit-site-server.js';
import { benchEntry } from './compiled.js';

const SERVER = benchEntry('audit-site-server');

/** The generated site, served by a child process (see audit-site-server.ts). */
export class SiteProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly spec: SiteSpec,
  ) {}

  static async start(spec: SiteSpec): Promise<SiteProcess> {
    const child = fork(SERVER.path, [JSON.stringify(spec)], {
      execArgv: SERVER.execArgv,
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
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const paths = Array.from({ length: this.spec.pages }, (_, i) => pagePath(this.spec, i));
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
