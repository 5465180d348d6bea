// n8n's community-node rules, as its verification applies them: no console, and inline
// disables ignored, as n8n's scanner does (`npm run scan` adds eslint-plugin-n8n-nodes-base).
import tsParser from '@typescript-eslint/parser';
import plugin from '@n8n/eslint-plugin-community-nodes';

const recommended = plugin.configs.recommended;

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'scripts/**', 'examples/**'] },
	{
		...recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		linterOptions: { noInlineConfig: true },
		rules: { ...recommended.rules, 'no-console': 'error' },
	},
];
