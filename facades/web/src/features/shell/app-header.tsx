import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery } from 'urql';
import {
  Button as AriaButton,
  Dialog,
  DialogTrigger,
  Header,
  ListBox,
  ListBoxItem,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  Select,
  SelectValue,
  Label,
  Separator,
} from 'react-aria-components';
import { ViewerDocument } from '../../gql/graphql';
import { authClient } from '../../lib/auth-client';
import { useSessionChange } from '../../lib/session-change';
import { PREFETCHED } from '../../lib/urql';
import { PLAN_LABEL } from '../../lib/plan';
import { formatNumber, plural } from '../../lib/format';
import { USAGE_CONTEXT } from './usage-context';

interface HeaderUser {
  name: string;
  email: string;
}

/** better-auth's organizations of the user; choosing one makes it the session's active organization. */
const CREATE_ORGANIZATION = '__create-organization';

function OrganizationSwitcher({ currentId, currentName }: { currentId?: string; currentName?: string }) {
  const organizations = authClient.useListOrganizations();
  const sessionChanged = useSessionChange();
  const navigate = useNavigate();
  const list = [...(organizations.data ?? []), { id: CREATE_ORGANIZATION, name: 'Create organization…' }];
  async function choose(id: string) {
    if (id === CREATE_ORGANIZATION) return void navigate({ to: '/settings/organization', hash: 'create' });
    if (!id || id === currentId) return;
    await authClient.organization.setActive({ organizationId: id });
    await sessionChanged('/projects');
  }
  return (
    <Select
      className="org-switcher"
      selectedKey={currentId ?? null}
      onSelectionChange={(key) => void choose(String(key))}
      isDisabled={!organizations.data}
      // Until the list arrives the active organization's name (from the header's query) stands in for it.
      placeholder={currentName ?? 'Loading…'}
    >
      <Label className="visually-hidden">Organization</Label>
      <AriaButton className="btn btn-quiet select-button">
        <SelectValue />
        <span aria-hidden="true" className="chevron">
          ▾
        </span>
      </AriaButton>
      <Popover className="popover">
        <ListBox className="listbox" items={list}>
          {(org) => (
            <ListBoxItem id={org.id} className="listbox-item" textValue={org.name}>
              {org.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}

function UsageRow({ label, used, limit }: { label: string; used: number; limit?: number | null }) {
  const full = limit != null && used >= limit;
  return (
    <div className="usage-row">
      <dt>{label}</dt>
      <dd className={full ? 'usage-full' : undefined}>
        {formatNumber(used)}
        {limit != null && ` of ${formatNumber(limit)}`}
      </dd>
    </div>
  );
}

export function AppHeader({ user }: { user: HeaderUser }) {
  const [{ data }] = useQuery({ query: ViewerDocument, context: USAGE_CONTEXT, ...PREFETCHED });
  const navigate = useNavigate();
  const sessionChanged = useSessionChange();
  const org = data?.viewer.organization;
  const usage = org?.usage;

  async function signOut() {
    await authClient.signOut();
    await sessionChanged('/');
  }

  return (
    <header className="app-header">
      <Link to="/projects" className="brand">
        <img src="/favicon.svg" alt="" width="24" height="24" />
        <span className="brand-text">SEO Audit Platform</span>
      </Link>
      <nav aria-label="Main" className="header-nav">
        <Link to="/projects" activeProps={{ 'aria-current': 'page' }}>
          Projects
        </Link>
        <Link to="/tools" activeProps={{ 'aria-current': 'page' }}>
          Tools
        </Link>
        <Link to="/settings" activeProps={{ 'aria-current': 'page' }}>
          Settings
        </Link>
      </nav>
      <div className="header-end">
        <div className="header-slot-org">
          <OrganizationSwitcher currentId={org?.id} currentName={org?.name} />
        </div>
        <div className="header-slot-plan">
          {org && usage && (
            <DialogTrigger>
              <AriaButton className="btn btn-quiet plan-button">
                <span className="plan-badge">{PLAN_LABEL[org.plan]}</span>
                <span className="plan-usage">
                  {usage.projects}/{usage.projectsLimit} {usage.projectsLimit === 1 ? 'project' : 'projects'}
                </span>
              </AriaButton>
              <Popover className="popover usage-popover" placement="bottom end">
                <Dialog className="popover-dialog" aria-label="Plan and usage">
                  <p className="popover-title">
                    {PLAN_LABEL[org.plan]} plan · {org.name}
                  </p>
                  <dl className="usage-list">
                    <UsageRow label="Projects" used={usage.projects} limit={usage.projectsLimit} />
                    <UsageRow label="Audits this month" used={usage.auditsThisMonth} />
                    <UsageRow label="Keywords tracked" used={usage.keywords} />
                    <UsageRow label="Active API keys" used={usage.apiKeys} limit={usage.apiKeysLimit} />
                  </dl>
                  <p className="muted small">
                    Up to {plural(usage.keywordsPerProjectLimit, 'keyword')} per project. Audits have no monthly limit.
                  </p>
                </Dialog>
              </Popover>
            </DialogTrigger>
          )}
        </div>
        <MenuTrigger>
          <AriaButton className="btn btn-quiet user-button">
            {/* The initial is drawn by CSS: the button's visible text is the name its accessible name contains. */}
            <span
              className="avatar"
              aria-hidden="true"
              data-initial={(user.name || user.email).charAt(0).toUpperCase()}
            />
            <span className="visually-hidden">Account: </span>
            <span className="user-name">{user.name || user.email}</span>
          </AriaButton>
          <Popover className="popover" placement="bottom end">
            <Menu
              className="menu"
              onAction={(key) =>
                key === 'sign-out'
                  ? void signOut()
                  : void navigate({ to: key === 'account' ? '/account' : '/settings/api-keys' })
              }
            >
              <MenuSection>
                <Header className="menu-header">
                  <span>{user.name}</span>
                  <span className="muted small">{user.email}</span>
                </Header>
                <MenuItem id="account" className="menu-item">
                  Account
                </MenuItem>
                <MenuItem id="settings" className="menu-item">
                  Settings
                </MenuItem>
              </MenuSection>
              <Separator className="menu-separator" />
              <MenuSection>
                <MenuItem id="sign-out" className="menu-item">
                  Sign out
                </MenuItem>
              </MenuSection>
            </Menu>
          </Popover>
        </MenuTrigger>
      </div>
    </header>
  );
}
