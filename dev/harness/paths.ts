/** Where things are: this repository, the package's name, and the n8n the tests run (its install and version). */
import { existsSync } from 'fs';
import { join, resolve } from 'path';

export const ROOT = resolve(__dirname, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-unpod';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../install/runtime.js');
/** The recipe of the n8n tests run (UNPOD_N8N_RUNTIME, default test/n8n/2.8). */
export const RECIPE: string = runtime.runtimeDir();
/** Where that n8n is installed (a per-user cache: dev/install/runtime.js). */
export const RUNTIME: string = runtime.installDir(RECIPE);
/** The n8n version installed there. */
export const N8N_VERSION: string = existsSync(join(RUNTIME, 'node_modules', 'n8n'))
	? runtime.n8nVersion(RECIPE)
	: 'not installed';
