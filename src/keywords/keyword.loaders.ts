import DataLoader from 'dataloader';
import type { RequestContext } from '../platform/context.js';
import { nativeQuery } from '../platform/db/native-query.js';

export const keywordCountLoader = (ctx: RequestContext) =>
  ctx.loaders.get('keywords.count', () =>
    new DataLoader<string, number>(async (projectIds) => {
      const rows = await nativeQuery<{ project_id: string; n: number }>(
        ctx.em,
        'SELECT project_id, count(*)::int AS n FROM keyword WHERE project_id = ANY($1::uuid[]) GROUP BY project_id',
        [projectIds],
      );
      const by = new Map(rows.map((r) => [r.project_id, r.n]));
      return projectIds.map((id) => by.get(id) ?? 0);
    }),
  );
