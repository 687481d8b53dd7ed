import { Command, CommanderError } from 'commander';
import { DomainError } from '../platform/errors.js';
import { registerAdminCommands } from './admin-commands.js';
import { registerAuditCommand } from './audit-command.js';
import { registerExportCommands } from './export-command.js';
import { EXIT, EXIT_CODES_HELP, packageVersion, type CliRoot } from './cli-runtime.js';
import { registerProcessCommands } from './process-commands.js';
import { registerSecretsCommands } from './secrets-commands.js';

export type { CliRoot } from './cli-runtime.js';

/**
 * The `seo` command: one file per group of commands (the platform's processes, administration, secrets, the audit),
 * each loading the modules it needs when it runs (cli-runtime.ts).
 */
function buildProgram(root: CliRoot): Command {
  const program = new Command('seo')
    .description('SEO audit platform: run the server and workers, manage users and keys, audit a site from the shell')
    .version(packageVersion(), '-V, --version', 'print the version')
    // Usage errors throw (see runCli) instead of exiting with commander's code 1: 1 is the gate.
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      `${EXIT_CODES_HELP}\n\nEvery command prints JSON except \`audit\` (text unless --json or --format). ` +
        `\`seo <command> --help\` describes one.`,
    );
  registerProcessCommands(program, root);
  registerAdminCommands(program, root);
  registerSecretsCommands(program, root);
  registerAuditCommand(program, root);
  registerExportCommands(program, root);
  return program;
}

/** Runs the command of `argv`; its exit code says how it went (EXIT, cli-runtime.ts). */
export function runCli(root: CliRoot, argv: readonly string[]): void {
  // A reader that stops early (`seo audit … | head`) closes the pipe: the rest of the output has nowhere to go, and
  // that is not an error of the command. It ends quietly with 0 instead of a stack trace and 1.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.ok);
    throw err;
  });
  buildProgram(root)
    .parseAsync(argv)
    .catch((err: unknown) => {
      // Commander has printed its own message (or the help, or the version) already.
      if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.failed);
      const message = err instanceof Error ? err.message : String(err);
      console.error(`error: ${message}`);
      process.exit(err instanceof DomainError && err.code === 'BAD_USER_INPUT' ? EXIT.failed : 1);
    });
}
