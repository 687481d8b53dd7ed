import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  redirect,
  type RouterHistory,
} from '@tanstack/react-router';
import type { Client } from '@urql/core';
import type { Session } from '../lib/session';
import { LandingPage } from '../features/landing';
import { SignInPage, SignUpPage } from '../features/auth';
import {
  DashboardPage,
  ProjectOverviewPage,
  ProjectSettingsPage,
  prefetchDashboard,
  prefetchProjectOverview,
} from '../features/projects';
import { KeywordsPage, parseKeywordSearch, prefetchKeywords } from '../features/keywords';
import { CompetitorsPage } from '../features/competitors';
import { AlertsPage, UnsubscribePage, parseUnsubscribeSearch } from '../features/alerts';
import { TechnicalPage } from '../features/technical';
import { ReportPage } from '../features/reports';
import { InvitationPage, OrganizationPage } from '../features/team';
import { AccountPage, ForgotPasswordPage, ResetPasswordPage } from '../features/account';
import {
  AuditIssuesPage,
  PagesExplorerPage,
  PageViewPage,
  IssueUrlsPage,
  parseIssueSearch,
  parsePageSearch,
  parsePageViewSearch,
  parseIssueUrlsSearch,
  prefetchAuditIssues,
} from '../features/audits';
import { ComparisonPage, parseComparisonSearch } from '../features/comparison';
import { ApiKeysPage, MembersPage, SettingsLayout } from '../features/settings';
import { HeadersToolPage, MetaTagsToolPage, RobotsToolPage, SitemapToolPage, ToolsIndexPage } from '../features/tools';
import { ExplorerPage } from '../features/explorer';
import {
  CheckCatalogPage,
  CheckDocPage,
  ProjectChecksPage,
  loadCheckCatalog,
  loadCheckDoc,
  parseCatalogSearch,
  prefetchProjectChecks,
} from '../features/checks';
import { prefetchHeader } from '../features/shell';
import { RootLayout } from './root-layout';
import { NotFoundPage, RouteError, RoutePending } from './route-states';

export interface RouterContext {
  loadSession(): Promise<Session | null>;
  graphql(): Client;
}

/** The session is read once per navigation, here; every guard and the header use this one answer. */
const rootRoute = createRootRouteWithContext<RouterContext>()({
  beforeLoad: async ({ context }) => ({ session: await context.loadSession() }),
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

/** Pages for visitors: a signed-in user goes straight to the projects. */
const signedOutOnly = ({ context }: { context: { session: Session | null } }) => {
  if (context.session) throw redirect({ to: '/projects' });
};

const landingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: signedOutOnly,
  component: LandingPage,
});

interface RedirectSearch {
  redirect?: string;
}
/** Only a path of this application is followed after sign-in (never another origin). */
const parseRedirect = (search: Record<string, unknown>): RedirectSearch => {
  const to = search.redirect;
  return typeof to === 'string' && to.startsWith('/') && !to.startsWith('//') ? { redirect: to } : {};
};

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: parseRedirect,
  beforeLoad: signedOutOnly,
  component: SignInPage,
});
const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-up',
  validateSearch: parseRedirect,
  beforeLoad: signedOutOnly,
  component: SignUpPage,
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  beforeLoad: signedOutOnly,
  component: ForgotPasswordPage,
});
const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  component: ResetPasswordPage,
});

/** Everything below needs a session; without one the visitor is sent to sign in and brought back. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: ({ context, location }) => {
    if (!context.session) throw redirect({ to: '/sign-in', search: { redirect: location.href } });
  },
  // The header's query starts with the page's, while their code loads (route loaders do not block rendering).
  loader: ({ context }) => prefetchHeader(context.graphql()),
});

const projectsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects',
  loader: ({ context }) => prefetchDashboard(context.graphql()),
  component: DashboardPage,
});
const projectRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId',
  loader: ({ context, params }) => prefetchProjectOverview(context.graphql(), params.projectId),
  component: ProjectOverviewPage,
});
const auditIssuesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/audits/$auditId',
  validateSearch: parseIssueSearch,
  loader: ({ context, params }) => prefetchAuditIssues(context.graphql(), params.projectId, params.auditId),
  component: AuditIssuesPage,
});
const auditPagesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/audits/$auditId/pages',
  validateSearch: parsePageSearch,
  component: PagesExplorerPage,
});
const issueUrlsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/audits/$auditId/issues/$issueId',
  validateSearch: parseIssueUrlsSearch,
  component: IssueUrlsPage,
});
const auditPageViewRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/audits/$auditId/page',
  validateSearch: parsePageViewSearch,
  component: PageViewPage,
});
const comparisonRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/compare',
  validateSearch: parseComparisonSearch,
  component: ComparisonPage,
});

// The sections of a project (features/keywords, competitors, technical, reports; projects' settings).
const projectKeywordsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/keywords',
  validateSearch: parseKeywordSearch,
  loader: ({ context, params }) => prefetchKeywords(context.graphql(), params.projectId),
  component: KeywordsPage,
});
const projectCompetitorsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/competitors',
  component: CompetitorsPage,
});
const projectTechnicalRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/technical',
  component: TechnicalPage,
});
const projectAlertsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/alerts',
  component: AlertsPage,
});
const projectReportRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/report',
  component: ReportPage,
});
const projectSettingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/settings',
  component: ProjectSettingsPage,
});

const projectChecksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectId/checks',
  loader: ({ context, params }) => prefetchProjectChecks(context.graphql(), params.projectId),
  component: ProjectChecksPage,
});

const accountRoute = createRoute({ getParentRoute: () => appRoute, path: '/account', component: AccountPage });
const invitationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/invitations/$invitationId',
  component: InvitationPage,
});

const settingsRoute = createRoute({ getParentRoute: () => appRoute, path: '/settings', component: SettingsLayout });
const settingsIndexRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/settings/api-keys' });
  },
});
const apiKeysRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/api-keys', component: ApiKeysPage });
const membersRoute = createRoute({ getParentRoute: () => settingsRoute, path: '/members', component: MembersPage });
const organizationRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/organization',
  component: OrganizationPage,
});

// An alert e-mail's unsubscribe link: no session needed (the token names the person).
const unsubscribeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/unsubscribe',
  validateSearch: parseUnsubscribeSearch,
  component: UnsubscribePage,
});

const toolsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/tools', component: ToolsIndexPage });
const metaTagsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tools/meta-tags',
  component: MetaTagsToolPage,
});
const robotsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/tools/robots', component: RobotsToolPage });
const headersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tools/headers',
  component: HeadersToolPage,
});
const sitemapRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tools/sitemap',
  component: SitemapToolPage,
});

// The public check catalog: anyone may read it; the server renders it with its data (facades/http/check-pages.ts).
const checksRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/checks',
  validateSearch: parseCatalogSearch,
  loader: ({ context }) => loadCheckCatalog(context.graphql()),
  component: CheckCatalogPage,
});
const checkDocRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/checks/$code',
  loader: ({ context, params }) => loadCheckDoc(context.graphql(), params.code),
  component: CheckDocPage,
});

const explorerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/graphql/explorer',
  component: ExplorerPage,
});

const routeTree = rootRoute.addChildren([
  landingRoute,
  signInRoute,
  signUpRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  unsubscribeRoute,
  appRoute.addChildren([
    projectsRoute,
    projectRoute,
    auditIssuesRoute,
    auditPagesRoute,
    auditPageViewRoute,
    issueUrlsRoute,
    comparisonRoute,
    projectKeywordsRoute,
    projectCompetitorsRoute,
    projectTechnicalRoute,
    projectAlertsRoute,
    projectReportRoute,
    projectSettingsRoute,
    projectChecksRoute,
    accountRoute,
    invitationRoute,
    settingsRoute.addChildren([settingsIndexRoute, apiKeysRoute, membersRoute, organizationRoute]),
  ]),
  toolsRoute,
  metaTagsRoute,
  robotsRoute,
  headersRoute,
  sitemapRoute,
  checksRoute,
  checkDocRoute,
  explorerRoute,
]);

/**
 * The application's router. The browser has one (main.tsx), on its own history; the server renders a signed-in page
 * with one of its own per request (entry-server.tsx), on a memory history at the requested URL, with the request's
 * session and a GraphQL client that runs the page's queries in-process.
 */
export function createAppRouter(
  context: RouterContext,
  options: { history?: RouterHistory; isServer?: boolean; scrollRestoration?: boolean } = {},
) {
  return createRouter({
    routeTree,
    context,
    defaultPendingComponent: RoutePending,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFoundPage,
    defaultPreload: 'intent',
    scrollRestoration: true,
    ...options,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
