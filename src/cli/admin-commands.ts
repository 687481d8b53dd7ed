import type { Command } from 'commander';
import type { MikroORM } from '../platform/db/orm.js';
import { DomainError } from '../platform/errors.js';
import { config, lazy, print, systemPrincipal, withOrm, type CliRoot } from './cli-runtime.js';

/** The organization whose id or slug is `ref`: its id, or NOT_FOUND. */
async function orgByRef(orm: MikroORM, ref: string): Promise<string> {
  const { OrganizationService } = await lazy.identity();
  const id = await new OrganizationService().idByRef(orm.em, ref);
  if (!id) throw new DomainError('NOT_FOUND', `organization "${ref}" not found`);
  return id;
}

/** `seo user`: users made and their passwords set by an administrator. */
function registerUserCommands(program: Command): void {
  const user = program.command('user').description('manage users');
  user
    .command('create')
    .requiredOption('--email <email>')
    .requiredOption('--password <password>', 'at least 8 characters')
    .option('--name <name>')
    .description('create a user (and their personal organization on DEFAULT_PLAN)')
    .action(async (opts: { email: string; password: string; name?: string }) => {
      const cfg = await config();
      const [{ withPlatformPool }, { createAuth, UserAdminService }] = await Promise.all([lazy.db(), lazy.identity()]);
      await withPlatformPool(cfg.DATABASE_URL, async (pool) => {
        const auth = await createAuth(cfg, pool);
        const name = opts.name ?? opts.email.split('@')[0];
        print(await new UserAdminService().create(auth, pool, { email: opts.email, password: opts.password, name }));
      });
    });

  user
    .command('set-password')
    .requiredOption('--email <email>')
    .requiredOption('--password <password>', 'at least 8 characters')
    .description("set a user's password and end their sessions (a forgotten password when no SMTP_URL is set)")
    .action(async (opts: { email: string; password: string }) => {
      const cfg = await config();
      const [{ withPlatformPool }, { createAuth, UserAdminService }] = await Promise.all([lazy.db(), lazy.identity()]);
      await withPlatformPool(cfg.DATABASE_URL, async (pool) => {
        const userId = await new UserAdminService().setPassword(pool, opts.email, opts.password, () =>
          createAuth(cfg, pool),
        );
        if (!userId) throw new DomainError('NOT_FOUND', `user ${opts.email} not found`);
        print({ user: { id: userId, email: opts.email }, sessionsEnded: true });
      });
    });
}

/** `seo org`: organizations, their plans (set server-side only). */
function registerOrgCommands(program: Command, root: CliRoot): void {
  const org = program.command('org').description('manage organizations');
  org
    .command('create')
    .description('create an organization owned by an existing user')
    .requiredOption('--name <name>')
    .requiredOption('--owner <email>', 'email of an existing user')
    .option('--plan <plan>', 'FREE, PRO or ENTERPRISE')
    .action(async (opts: { name: string; owner: string; plan?: string }) => {
      const cfg = await config();
      const [{ withPlatformPool }, { insertOrganization, UserAdminService }, { PLANS }] = await Promise.all([
        lazy.db(),
        lazy.identity(),
        lazy.config(),
      ]);
      await withPlatformPool(cfg.DATABASE_URL, async (pool) => {
        const ownerUserId = await new UserAdminService().idByEmail(pool, opts.owner);
        if (!ownerUserId) throw new DomainError('NOT_FOUND', `user ${opts.owner} not found`);
        const plan = (opts.plan ?? cfg.DEFAULT_PLAN).toUpperCase();
        if (!(PLANS as readonly string[]).includes(plan))
          throw new DomainError('BAD_USER_INPUT', `unknown plan ${opts.plan}; use one of ${PLANS.join(', ')}`);
        const created = await insertOrganization(pool, { name: opts.name, ownerUserId, plan });
        print({ organization: { ...created, name: opts.name, plan } });
      });
    });
  org
    .command('list')
    .description('list all organizations')
    .action(async () => {
      await withOrm(root, await config(), async (orm) => {
        const { OrganizationService } = await lazy.identity();
        print({ organizations: await new OrganizationService().all(orm.em) });
      });
    });
  org
    .command('set-plan')
    .description("change an organization's plan (plans are set server-side only)")
    .argument('<organization>', 'id or slug')
    .argument('<plan>', 'FREE, PRO or ENTERPRISE')
    .action(async (ref: string, plan: string) => {
      await withOrm(root, await config(), async (orm) => {
        const em = orm.em.fork();
        const { OrganizationService } = await lazy.identity();
        print({
          organization: await new OrganizationService().setPlan(em, await orgByRef(orm, ref), plan.toUpperCase()),
        });
      });
    });
}

/** `seo user`, `seo org` and `seo api-key`: what an administrator manages, through the identity module's services. */
export function registerAdminCommands(program: Command, root: CliRoot): void {
  registerUserCommands(program);
  registerOrgCommands(program, root);
  const apiKey = program.command('api-key').description('manage API keys');
  apiKey
    .command('create')
    .requiredOption('--org <organization>', 'id or slug')
    .requiredOption('--name <name>')
    .description('create an API key; the full key is printed once')
    .action(async (opts: { org: string; name: string }) => {
      await withOrm(root, await config(), async (orm) => {
        const em = orm.em.fork();
        const { ApiKeyService } = await lazy.identity();
        const { apiKey: k, key } = await new ApiKeyService().create(
          em,
          systemPrincipal(await orgByRef(orm, opts.org)),
          opts.name,
        );
        print({ key, apiKey: { id: k.id, name: k.name, prefix: k.prefix, createdAt: k.createdAt } });
      });
    });
}
