import type { Command } from 'commander';
import { DomainError } from '../platform/errors.js';
import { config, lazy, print, withOrm, type CliRoot } from './cli-runtime.js';

/** A key given to `seo secrets`: the key material itself, or `env:NAME` to read it from that variable. */
function keyMaterialArgument(option: string, value: string, minLength: number): string {
  const named = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(value);
  const material = named ? process.env[named[1]!] : value;
  if (!material) throw new DomainError('BAD_USER_INPUT', `${option}: the variable ${named?.[1]} is not set`);
  if (material.length < minLength)
    throw new DomainError('BAD_USER_INPUT', `${option} must be at least ${minLength} characters`);
  return material;
}

/** `seo secrets`: the keys that seal stored secrets. */
export function registerSecretsCommands(program: Command, root: CliRoot): void {
  const secrets = program.command('secrets').description('manage the keys that seal stored secrets');
  secrets
    .command('rotate-crawl-key')
    .description(
      "re-seal every project's crawl login from one key to another, in one transaction (all or none); then set " +
        'CRAWL_SECRET_KEY to the new key. A key is given as is or as env:NAME (read from that variable, kept out ' +
        'of the process list). Logins already sealed with the new key are left alone.',
    )
    .requiredOption(
      '--from <old>',
      'the key the logins are sealed with now (CRAWL_SECRET_KEY, else BETTER_AUTH_SECRET)',
    )
    .requiredOption('--to <new>', 'the new key (at least 32 characters)')
    .action(async (opts: { from: string; to: string }) => {
      const from = keyMaterialArgument('--from', opts.from, 1);
      const to = keyMaterialArgument('--to', opts.to, 32);
      await withOrm(root, await config(), async (orm) => {
        const { CrawlLoginService } = await lazy.projects();
        print({ crawlLogins: await CrawlLoginService.rotate(orm.em, from, to) });
      });
    });
}
