import { useEffect, useState } from 'react';
import { useParams, useRouter } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { ProjectOrganizationDocument, ViewerDocument } from '../gql/graphql';
import { forgetSession } from './session';
import { useResetGraphQL } from './graphql-client';
import { PREFETCHED } from './urql';

/** Projects this tab already switched organization for: a page still missing afterwards is really missing. */
const switchedFor = new Set<string>();

export type OrganizationFollow =
  { state: 'idle' } | { state: 'checking' } | { state: 'switching'; organizationName: string };

/**
 * A project link (bookmarked, shared) opened while another of the user's organizations is active: when the page
 * answers NOT_FOUND, ask the API which of the user's organizations owns the project (it answers members only),
 * make that one active and load the same page again. `missing` is whether the page's query said NOT_FOUND.
 */
export function useFollowProjectOrganization(missing: boolean): OrganizationFollow {
  const { projectId } = useParams({ strict: false }) as { projectId?: string };
  const router = useRouter();
  const resetGraphQL = useResetGraphQL();
  const active = missing && !!projectId && !switchedFor.has(projectId);
  const [viewer] = useQuery({ query: ViewerDocument, pause: !active, ...PREFETCHED });
  const [owner] = useQuery({
    query: ProjectOrganizationDocument,
    variables: { id: projectId ?? '' },
    pause: !active,
    requestPolicy: 'network-only',
  });
  const [switching, setSwitching] = useState<string | null>(null);
  const currentId = viewer.data?.viewer.organization.id;
  const target = owner.data?.projectOrganization;

  useEffect(() => {
    if (!active || !projectId || !target || !currentId || target.id === currentId) return;
    switchedFor.add(projectId);
    setSwitching(target.name);
    void (async () => {
      // better-auth's client loads only here: the pages that share this hook (the public tools among them) do not
      // carry it, and it is never evaluated when those pages are pre-rendered.
      const { authClient } = await import('./auth-client');
      await authClient.organization.setActive({ organizationId: target.id });
      // The session and every cached result belong to the other organization now; the route runs again.
      forgetSession();
      resetGraphQL();
      await router.invalidate();
      setSwitching(null);
    })();
  }, [active, projectId, target, currentId, resetGraphQL, router]);

  if (switching) return { state: 'switching', organizationName: switching };
  if (!active) return { state: 'idle' };
  if (owner.fetching || viewer.fetching || (target && currentId && target.id !== currentId))
    return { state: 'checking' };
  return { state: 'idle' };
}
