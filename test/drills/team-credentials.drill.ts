/**
 * A runner of its own for the credential-confinement half of the `team` drill (test/drills/team-credentials.ts), so
 * that it can be run alone: `npm run drill -- team-credentials [--quick]`.
 */
import { expectations, type Drill } from './drill.js';
import { startPlatform } from './platform.js';
import { teamCredentialsSetup } from './team-credentials.js';

export const drill: Drill = {
  description:
    'team credentials: a member moves a project with a crawl login to canary hosts, subdomains and a wider ' +
    'scope, and starts audits → 0 credentials at the canaries',
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const setup = await teamCredentialsSetup();
    const platform = await startPlatform({
      apis: 1,
      workerGroups: 1,
      env: { DEFAULT_PLAN: 'ENTERPRISE', ...setup.env },
    });
    try {
      const { figures, failures } = await setup.run(platform, { quick, log });
      for (const failure of failures) expect(false, failure);
      return result(figures);
    } finally {
      await platform.stop();
      await setup.close();
    }
  },
};
