/**
 * n8n's SQLite database with every migration run, made once per machine for each runtime (kept in
 * its install, so a new runtime makes its own) and copied into each new user folder: a fresh
 * folder's first n8n process would run them all again (1.5 CPU-seconds on n8n 2.8, 3 on 2.41).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';
import { RUNTIME } from './paths';
import { runGroup } from './processes';

const TEMPLATE = join(RUNTIME, 'database-template');

/** Puts a migrated, empty database (no owner set up yet) into `n8nDir` (a user folder's `.n8n`). */
export async function copyMigratedDatabase(env: NodeJS.ProcessEnv, n8nDir: string): Promise<void> {
	if (!existsSync(TEMPLATE)) await makeTemplate(env);
	for (const name of readdirSync(TEMPLATE)) cpSync(join(TEMPLATE, name), join(n8nDir, name));
}

async function makeTemplate(env: NodeJS.ProcessEnv): Promise<void> {
	const partial = `${TEMPLATE}.partial-${process.pid}-${Date.now()}`;
	mkdirSync(partial, { recursive: true });
	try {
		const none = join(partial, 'none.json');
		writeFileSync(none, '[]');
		// An import of no credentials: n8n runs its migrations, imports nothing and exits.
		const result = await runGroup(
			join(RUNTIME, 'node_modules', '.bin', 'n8n'),
			['import:credentials', `--input=${none}`],
			{
				env: { ...env, N8N_USER_FOLDER: partial },
				cwd: partial,
				timeoutMs: 240_000,
			},
		);
		const made = join(partial, '.n8n');
		if (result.exitCode !== 0 || !existsSync(join(made, 'database.sqlite')))
			throw new Error(`n8n's migrations failed (${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
		for (const name of readdirSync(made))
			if (!name.startsWith('database.sqlite')) rmSync(join(made, name), { recursive: true });
		// Another test worker may have made it meanwhile: theirs is kept.
		if (!existsSync(TEMPLATE)) renameSync(made, TEMPLATE);
	} finally {
		rmSync(partial, { recursive: true, force: true });
	}
}
