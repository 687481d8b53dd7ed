import { Link, Outlet } from '@tanstack/react-router';

/** Settings of the active organization: its API keys, members and invitations, name and slug. */
export function SettingsLayout() {
  return (
    <section className="page" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <nav aria-label="Settings sections" className="tabs-nav">
        <Link to="/settings/api-keys" activeProps={{ 'aria-current': 'page' }}>
          API keys
        </Link>
        <Link to="/settings/members" activeProps={{ 'aria-current': 'page' }}>
          Members
        </Link>
        <Link to="/settings/organization" activeProps={{ 'aria-current': 'page' }}>
          Organization
        </Link>
      </nav>
      <Outlet />
    </section>
  );
}
