import type { ApiAccess, Plan } from '../gql/graphql';

export const PLAN_LABEL: Record<Plan, string> = { FREE: 'Free', PRO: 'Pro', ENTERPRISE: 'Enterprise' };

/** What the organization's plan allows on the REST API (/api/v1) and key-authenticated GraphQL, in words. */
export const API_ACCESS_TEXT: Record<ApiAccess, string> = {
  NONE:
    'API keys are not accepted on this plan: the Free plan includes the web app and the free tools. Upgrade to ' +
    'Pro for read-only API access, or to Enterprise for full access.',
  READ_ONLY:
    'API keys can read projects, audits and keywords on this plan (Pro); changes through the API need Enterprise.',
  FULL: 'API keys have full access on this plan (Enterprise).',
};
