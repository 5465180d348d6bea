// n8n-core reads N8N_USER_FOLDER when first used; give it a folder of its own before it loads.
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'unpod-poll-'));
