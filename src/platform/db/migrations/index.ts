import type { MigrationObject } from '@mikro-orm/core';
import { IdentityAndProjects20261121 } from './20261121-0001-identity-and-projects.js';
import { Audits20261121 } from './20261121-0002-audits.js';
import { KeywordsCompetitors20261121 } from './20261121-0003-keywords-competitors.js';
import { FixSuggestions20261121 } from './20261121-0004-fix-suggestions.js';
import { AuditPhaseAndPages20261123 } from './20261123-0005-audit-phase-and-pages.js';
import { AuditPagesFailed20261123 } from './20261123-0006-audit-pages-failed.js';
import { MemberKeepsAnOwner20261124 } from './20261124-0007-member-keeps-an-owner.js';
import { RankingReadIndexes20261124 } from './20261124-0008-ranking-read-indexes.js';
import { AuditScoreBreakdown20261124 } from './20261124-0009-audit-score-breakdown.js';
import { AuditCrawlReport20261124 } from './20261124-0010-audit-crawl-report.js';
import { AuditLinkGraph20261124 } from './20261124-0011-audit-link-graph.js';
import { AuditHeartbeat20261124 } from './20261124-0012-audit-heartbeat.js';
import { AuditSchedules20261124 } from './20261124-0013-audit-schedules.js';
import { Alerts20261124 } from './20261124-0014-alerts.js';
import { AuditComparison20261124 } from './20261124-0015-audit-comparison.js';
import { OccurrenceStatistics20261125 } from './20261125-0016-occurrence-statistics.js';
import { AuditPageRendering20261125 } from './20261125-0017-audit-page-rendering.js';
import { ProjectCrawlLogin20261125 } from './20261125-0018-project-crawl-login.js';
import { ProjectCheckSettings20261125 } from './20261125-0019-project-check-settings.js';
import { AuditPageReads20261125 } from './20261125-0020-audit-page-reads.js';
import { ComparisonDigest20261125 } from './20261125-0021-comparison-digest.js';

/** Listed explicitly so that tsx, vitest and the compiled dist/ all run the same migrations. */
export const MIGRATIONS: MigrationObject[] = [
  { name: '20261121-0001-identity-and-projects', class: IdentityAndProjects20261121 },
  { name: '20261121-0002-audits', class: Audits20261121 },
  { name: '20261121-0003-keywords-competitors', class: KeywordsCompetitors20261121 },
  { name: '20261121-0004-fix-suggestions', class: FixSuggestions20261121 },
  { name: '20261123-0005-audit-phase-and-pages', class: AuditPhaseAndPages20261123 },
  { name: '20261123-0006-audit-pages-failed', class: AuditPagesFailed20261123 },
  { name: '20261124-0007-member-keeps-an-owner', class: MemberKeepsAnOwner20261124 },
  { name: '20261124-0008-ranking-read-indexes', class: RankingReadIndexes20261124 },
  { name: '20261124-0009-audit-score-breakdown', class: AuditScoreBreakdown20261124 },
  { name: '20261124-0010-audit-crawl-report', class: AuditCrawlReport20261124 },
  { name: '20261124-0011-audit-link-graph', class: AuditLinkGraph20261124 },
  { name: '20261124-0012-audit-heartbeat', class: AuditHeartbeat20261124 },
  { name: '20261124-0013-audit-schedules', class: AuditSchedules20261124 },
  { name: '20261124-0014-alerts', class: Alerts20261124 },
  { name: '20261124-0015-audit-comparison', class: AuditComparison20261124 },
  { name: '20261125-0016-occurrence-statistics', class: OccurrenceStatistics20261125 },
  { name: '20261125-0017-audit-page-rendering', class: AuditPageRendering20261125 },
  { name: '20261125-0018-project-crawl-login', class: ProjectCrawlLogin20261125 },
  { name: '20261125-0019-project-check-settings', class: ProjectCheckSettings20261125 },
  { name: '20261125-0020-audit-page-reads', class: AuditPageReads20261125 },
  { name: '20261125-0021-comparison-digest', class: ComparisonDigest20261125 },
];
