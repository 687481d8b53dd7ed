import { canonicalUrlPath, robotsPathOf } from './robots-path-encoding.js';
import { compileRobotsRule } from './robots-pattern.js';
import type { CompiledRule } from './robots-pattern.js';
import { RobotsRuleIndex } from './robots-rule-index.js';
import { crawlerProductToken, groupAgentToken } from './robots-user-agent.js';
import type { RobotsTxt, RobotsVerdict } from './robots.types.js';

/** AI search and assistant crawlers whose blocking removes a site from AI answers (TECH_AI_SEARCH_BLOCKED). */
export const AI_SEARCH_BOTS = ['OAI-SearchBot', 'ChatGPT-User', 'PerplexityBot', 'Claude-User'] as const;

interface CompiledRobots {
  /** Indices of the groups naming each lower-cased product token (merged, RFC 9309 §2.2.1). */
  groupsByToken: Map<string, number[]>;
  /** Indices of the `*` groups. */
  globalGroups: number[];
  /** Rule index per selection (`*` for the global groups), built on first use. */
  indexes: Map<string, RobotsRuleIndex>;
}

// Compiled forms live beside the plain RobotsTxt, so the parse result stays serializable data.
const compiledCache = new WeakMap<RobotsTxt, CompiledRobots>();

function compiledFor(robots: RobotsTxt): CompiledRobots {
  const cached = compiledCache.get(robots);
  if (cached !== undefined) return cached;
  const groupsByToken = new Map<string, number[]>();
  const globalGroups: number[] = [];
  robots.groups.forEach((group, index) => {
    const tokens = new Set(group.userAgents.map((ua) => groupAgentToken(ua).token));
    for (const token of tokens) {
      if (token === '') continue;
      if (token === '*') {
        globalGroups.push(index);
        continue;
      }
      const indices = groupsByToken.get(token);
      if (indices === undefined) groupsByToken.set(token, [index]);
      else indices.push(index);
    }
  });
  const compiled: CompiledRobots = { groupsByToken, globalGroups, indexes: new Map() };
  compiledCache.set(robots, compiled);
  return compiled;
}

/** Rule index for a crawler: its own groups if any names it, else the `*` groups, else none (§2.2.1). */
function indexFor(robots: RobotsTxt, userAgent: string): RobotsRuleIndex {
  const compiled = compiledFor(robots);
  const token = crawlerProductToken(userAgent);
  const own = token === '*' || token === '' ? undefined : compiled.groupsByToken.get(token);
  const key = own === undefined ? '*' : token;
  let index = compiled.indexes.get(key);
  if (index === undefined) {
    // Each index compiles its own rules: they are linked into its buckets.
    const rules: CompiledRule[] = [];
    for (const group of own ?? compiled.globalGroups) {
      for (const rule of robots.groups[group].rules) {
        // An empty path matches nothing (`Disallow:` allows everything).
        if (rule.path.length > 0) rules.push(compileRobotsRule(rule));
      }
    }
    index = new RobotsRuleIndex(rules);
    compiled.indexes.set(key, index);
  }
  return index;
}

function decide(index: RobotsRuleIndex, canonicalPath: string): RobotsVerdict {
  const best = index.bestMatch(canonicalPath);
  return best === null ? { allowed: true, matchedRule: null } : { allowed: best.allow, matchedRule: best.rule };
}

/**
 * May `userAgent` (a product token or a full User-Agent string) fetch `url` (absolute, or a path)?
 * Longest matching rule wins, allow wins ties, no match means allowed; /robots.txt is always allowed.
 */
export function isAllowed(robots: RobotsTxt, url: string, userAgent: string): RobotsVerdict {
  const path = robotsPathOf(url);
  const queryStart = path.indexOf('?');
  if ((queryStart < 0 ? path : path.slice(0, queryStart)) === '/robots.txt') {
    return { allowed: true, matchedRule: null };
  }
  return decide(indexFor(robots, userAgent), canonicalUrlPath(path));
}

/**
 * True when the crawler's rules contain a disallow matching every URL (`Disallow: /`) and no allow
 * re-opens the root. With the default `*`, only the `*` groups are read.
 */
export function blocksAll(robots: RobotsTxt, userAgent = '*'): boolean {
  const index = indexFor(robots, userAgent);
  return index.hasDisallowAll() && !decide(index, '/').allowed;
}

/** The AI_SEARCH_BOTS that may not fetch the site root, in AI_SEARCH_BOTS order. */
export function blockedAiSearchBots(robots: RobotsTxt): string[] {
  return AI_SEARCH_BOTS.filter((bot) => !isAllowed(robots, '/', bot).allowed);
}
