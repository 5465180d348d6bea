// n8n-core reads N8N_USER_FOLDER when first used; give it a folder of its own before it loads,
// and remove that folder when the test file (jest) or the process (the benchmark) ends.
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
	// A jest worker runs many files and may be killed when the run ends: each file cleans up after itself.
	if (typeof afterAll === 'function') afterAll(remove);
	process.once('exit', remove);
}
