import { lazyRouteComponent } from '@tanstack/react-router';

/** GraphiQL and its editor (monaco) are large: they load only on this route. */
export const ExplorerPage = lazyRouteComponent(() => import('./explorer-page'), 'ExplorerPage');
