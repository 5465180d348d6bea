/** The README, CONTRIBUTING.md, the changelog and docs/ link to each other: every relative link and anchor resolves; the README is short and reaches every operation. */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, normalize, relative } from 'path';

const ROOT = join(__dirname, '..', '..');
const FILES = [
	'README.md',
	'CONTRIBUTING.md',
	'CHANGELOG.md',
	...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
	heading
		.replace(/^#+\s*/, '')
		.trim()
		.toLowerCase()
		.replace(/[^\w\- ]/g, '')
		.replace(/ /g, '-');

const anchorsOf = (file: string) =>
	new Set(
		readFileSync(join(ROOT, file), 'utf8')
			.split('\n')
			.filter((line) => /^#{1,6} /.test(line))
			.map(slug),
	);

test('every relative link and anchor of the README, CONTRIBUTING.md and docs/ resolves', () => {
	const broken: string[] = [];
	for (const file of FILES) {
		const text = readFileSync(join(ROOT, file), 'utf8');
		for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
			if (/^(https?:|mailto:)/.test(target)) continue;
			const [path, anchor] = target.split('#');
			const to = path ? relative(ROOT, normalize(join(ROOT, dirname(file), path))) : file;
			if (!existsSync(join(ROOT, to))) broken.push(`${file}: ${target} (no such file)`);
			else if (anchor && to.endsWith('.md') && !anchorsOf(to).has(anchor))
				broken.push(`${file}: ${target} (no such heading)`);
		}
	}
	expect(broken).toEqual([]);
	expect(FILES.length).toBeGreaterThan(3);
});

/** The README's section of a node: from its `### ` heading to the next heading of that level or above. */
function readmeSection(readme: string, heading: string): string {
	const start = readme.indexOf(`\n### ${heading}\n`);
	if (start < 0) return '';
	const rest = readme.slice(start + 1);
	const end = rest.slice(4).search(/\n#{2,3} /);
	return end < 0 ? rest : rest.slice(0, end + 4);
}

test('the README is short, and names every operation of every node with a link to its description', () => {
	const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
	expect(readme.split('\n').length).toBeLessThanOrEqual(600);
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	const missing: string[] = [];
	for (const file of pkg.n8n.nodes as string[]) {
		const exported = require(join(ROOT, file));
		const Node = Object.values(exported).find((v) => typeof v === 'function') as new () => { description: any };
		const node = new Node();
		const section = readmeSection(readme, node.description.displayName);
		if (!section) {
			missing.push(`${node.description.displayName}: no section`);
			continue;
		}
		// Each operation's name is the text of a link into docs/ (several names: "Get Many, Get").
		const linked = new Set(
			[...section.matchAll(/\[([^\]]+)\]\((docs\/[^)]+)\)/g)].flatMap(([, text]) => text.split(', ')),
		);
		for (const property of node.description.properties.filter((p: any) => p.name === 'operation')) {
			for (const option of property.options) {
				if (!linked.has(option.name)) missing.push(`${node.description.displayName}: ${option.name}`);
			}
		}
		// The triggers have no operations: their section links to their guide.
		if (!/\]\(docs\//.test(section)) missing.push(`${node.description.displayName}: no link into docs/`);
	}
	expect(missing).toEqual([]);
});
