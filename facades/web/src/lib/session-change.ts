import { useNavigate, useRouter } from '@tanstack/react-router';
import { forgetSession } from './session';
import { useResetGraphQL } from './graphql-client';

/**
 * After sign-in, sign-out or a switch of organization: the cached session and every cached result belong to
 * someone else now. Forget both, re-run the route guards, then go to `to`.
 */
export function useSessionChange(): (to: string) => Promise<void> {
  const router = useRouter();
  const navigate = useNavigate();
  const resetGraphQL = useResetGraphQL();
  return async (to) => {
    forgetSession();
    resetGraphQL();
    await router.invalidate();
    // A fragment (an invitation link's secret) is the location's hash, not part of its path.
    const [path, hash] = to.split('#', 2);
    await navigate({ to: path, ...(hash && { hash }) });
  };
}
