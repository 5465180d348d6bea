#!/usr/bin/env node
// The examples' Code nodes are written in examples/code/ (where they are read, linted by eye and
// unit-tested) and copied into the workflows by this script: `node scripts/example-code.js`
// writes them, `--check` only says which are stale (a unit test runs the check).
const { readFileSync, writeFileSync } = require('fs');
const { join } = require('path');

const EXAMPLES = join(__dirname, '..', 'examples');

/** Each Code node and the files its code is made of, in order. */
const CODE_NODES = [
	{ workflow: 'data-table-campaign.json', node: 'Take the slice', parts: ['campaign-slice.js'] },
	{
		workflow: 'data-table-campaign.json',
		node: 'Count the slice',
		parts: ['campaign-stages.js', 'campaign-count-slice.js'],
	},
	{
		workflow: 'data-table-campaign.json',
		node: 'Count the outcomes',
		parts: ['campaign-stages.js', 'campaign-count-outcomes.js'],
	},
	{
		workflow: 'data-table-campaign.json',
		node: 'Add up the figures',
		parts: ['campaign-stages.js', 'campaign-figures.js'],
	},
	{ workflow: 'data-table-campaign-contacts.json', node: 'First slice', parts: ['contacts-first-slice.js'] },
	{ workflow: 'data-table-campaign-contacts.json', node: 'Next slice', parts: ['contacts-next-slice.js'] },
	{ workflow: 'data-table-campaign-contacts.json', node: 'As contacts', parts: ['contacts-as-contacts.js'] },
	{ workflow: 'data-table-campaign-contacts.json', node: 'Slice added', parts: ['contacts-slice-added.js'] },
	// The page and the report add the figures up with the same node.
	...['data-table-campaign.json', 'unpod-daily-report.json'].map((workflow) => ({
		workflow,
		node: 'Figures now',
		parts: ['campaign-stages.js', 'campaign-figures-now.js'],
	})),
	{ workflow: 'data-table-campaign.json', node: 'Build the page', parts: ['campaign-stages.js', 'campaign-page.js'] },
	{
		workflow: 'unpod-daily-report.json',
		node: 'Yesterday against the day before',
		parts: ['campaign-stages.js', 'daily-report.js'],
	},
];

const codeOf = (parts) =>
	parts.map((p) => readFileSync(join(EXAMPLES, 'code', p), 'utf8').trimEnd()).join('\n\n') + '\n';

/** The Code nodes whose code differs from their files; with `write`, brought up to date. */
function syncExampleCode({ write }) {
	const stale = [];
	for (const { workflow, node, parts } of CODE_NODES) {
		const file = join(EXAMPLES, workflow);
		const json = JSON.parse(readFileSync(file, 'utf8'));
		const target = json.nodes.find((n) => n.name === node);
		if (!target) throw new Error(`${workflow} has no node "${node}"`);
		const code = codeOf(parts);
		if (target.parameters.jsCode === code) continue;
		stale.push(`${workflow}: ${node}`);
		target.parameters.jsCode = code;
		if (write) writeFileSync(file, JSON.stringify(json, null, 2) + '\n');
	}
	return stale;
}

module.exports = { CODE_NODES, codeOf, syncExampleCode };

if (require.main === module) {
	const check = process.argv.includes('--check');
	const stale = syncExampleCode({ write: !check });
	for (const s of stale) console.log(`${check ? 'Stale' : 'Updated'}: ${s}`);
	if (check && stale.length) process.exitCode = 1;
}
