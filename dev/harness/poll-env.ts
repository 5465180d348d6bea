// n8n-core reads N8N_USER_FOLDER when first used; give it a folder of its own before it loads,
// and remove that folder when the test file (jest: its environment's teardown, which runs even
// when the file fails to load) or the process (the benchmark) ends.
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

if (!process.env.N8N_USER_FOLDER) {
	const folder = mkdtempSync(join(tmpdir(), 'unpod-poll-'));
	process.env.N8N_USER_FOLDER = folder;
	const remove = () => {
		rmSync(folder, { recursive: true, force: true });
		if (process.env.N8N_USER_FOLDER === folder) delete process.env.N8N_USER_FOLDER;
	};
	// Under jest, the test environment removes it (test/helpers/leak-check-environment.js): a file's
	// own afterAll never runs when the file fails to load, and its `process` is not the real one.
	const removeAtTeardown = (globalThis as { __removeAtTeardown?: Array<() => void> }).__removeAtTeardown;
	if (removeAtTeardown) removeAtTeardown.push(remove);
	else if (process.env.JEST_WORKER_ID !== undefined) {
		// Another test environment (`--testEnvironment=node`): Jest's `process` never says exit,
		// and the folder would outlive the run. Refuse instead of leaving it behind.
		remove();
		throw new Error(
			"Run the tests with the project's test environment (jest.config.js): it removes their temp folders",
		);
	} else process.once('exit', remove);
}
