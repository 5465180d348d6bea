// n8n's lint config for community nodes, as `n8n-node lint` (@n8n/node-cli) runs it in the starter,
// on what n8n lints: nodes/, credentials/ and package.json. Run by scripts/lint-n8n.js, which
// installs @n8n/node-cli once per machine and names its folder in UNPOD_N8N_LINT.
import { createRequire } from 'module';

const require = createRequire(`${process.env.UNPOD_N8N_LINT}/package.json`);
const { config } = require('@n8n/node-cli/eslint');

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'scripts/**', 'dev/**', 'examples/**'] },
	...config,
];
