import fs from 'node:fs';
import { AdminUsageError, adminUsage, parseAdminArgs, runAdminCommand } from './admin/admin-commands';
import { runModelsCommand } from './admin/admin-models';
import { ConfigError, loadConfig } from './config';
import { outboxKeeper } from './modules/mail';
import { systemClock } from './platform/clock';
import { openDatabase } from './platform/db/client';
import { AppError } from './platform/errors';
import { createLogger } from './platform/logger';
import { modelStore } from './platform/models/model-store';
import { createMailer } from './providers/mail/create-mailer';

/**
 * `--password -` reads the password from standard input, so it shows neither in the process list nor in
 * the shell history: `printf '%s' "$PASSWORD" | npm run admin -- create-user --email E --password -`.
 */
async function withPasswordFromStdin(argv: string[]): Promise<string[]> {
  const at = argv.findIndex(
    (arg, i) => (arg === '--password' && argv[i + 1] === '-') || arg === '--password=-',
  );
  if (at === -1) return argv;
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const password = input.replace(/\r?\n$/, '');
  return argv[at] === '--password=-'
    ? [...argv.slice(0, at), `--password=${password}`, ...argv.slice(at + 1)]
    : [...argv.slice(0, at), '--password', password, ...argv.slice(at + 2)];
}

/** `npm run admin -- <command>`: the self-hoster's command line (see admin/admin-commands.ts). */
async function main(): Promise<number> {
  let command: ReturnType<typeof parseAdminArgs>;
  let config: ReturnType<typeof loadConfig>;
  try {
    command = parseAdminArgs(await withPasswordFromStdin(process.argv.slice(2)));
    if (command.name === 'help') {
      process.stdout.write(`${adminUsage}\n`);
      return 0;
    }
    if (command.name === 'models') {
      // The model store needs no database: it runs beside a running server, and before the first start.
      return await runModelsCommand(modelStore(), command, (line) => process.stdout.write(`${line}\n`));
    }
    config = loadConfig(process.env, []);
  } catch (error) {
    if (error instanceof AdminUsageError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n\n${adminUsage}\n`);
      return 2;
    }
    throw error;
  }
  const logger = createLogger({ ...config.log, level: 'warn' });
  fs.mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase(config.database);
  const mailer = createMailer(config, outboxKeeper(database.db), logger);
  try {
    await database.migrate();
    const lines = await runAdminCommand(
      { db: database.db, clock: systemClock, mailer, logger, publicUrl: config.publicUrl },
      command,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof AdminUsageError || error instanceof AppError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await mailer.close();
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
