/** The README, CONTRIBUTING.md and docs/ link to each other: every relative link and anchor resolves. */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, normalize, relative } from 'path';

const ROOT = join(__dirname, '..', '..');
const FILES = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)];

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
