#!/usr/bin/env node
// `node scripts/release.js <owner/name> <ref> [dir]`: run by the publish workflow just before
// `npm publish`. It writes into package.json the GitHub repository the package is published
// from (npm's provenance check requires `repository.url` to match it), as the package's
// homepage and issue tracker too, and turns the README's
// relative links into absolute ones, which the npm page, unlike GitHub, cannot resolve.
const { readFileSync, writeFileSync } = require('fs');
const { join } = require('path');

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Relative link targets become GitHub addresses: images as raw files, others as pages. */
function absoluteReadme(text, slug, ref) {
	const absolute = (target, image) => {
		if (/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target)) return target;
		const path = target.replace(/^\.\//, '');
		return image
			? `https://raw.githubusercontent.com/${slug}/${ref}/${path}`
			: `https://github.com/${slug}/blob/${ref}/${path}`;
	};
	return text.replace(
		/(!?)\[([^\]]*)\]\(([^)\s]+)((?:\s+"[^"]*")?)\)/g,
		(_, bang, label, target, title) => `${bang}[${label}](${absolute(target, bang === '!')}${title})`,
	);
}

function releasePackageJson(pkg, slug) {
	return {
		...pkg,
		repository: { type: 'git', url: `git+https://github.com/${slug}.git` },
		homepage: `https://github.com/${slug}#readme`,
		bugs: { url: `https://github.com/${slug}/issues` },
	};
}

function main([slug, ref, dir = join(__dirname, '..')]) {
	if (!SLUG.test(slug ?? '') || !ref) {
		throw new Error('Usage: node scripts/release.js <owner/name> <tag or commit> [package folder]');
	}
	const pkgFile = join(dir, 'package.json');
	const pkg = releasePackageJson(JSON.parse(readFileSync(pkgFile, 'utf8')), slug);
	writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
	const readmeFile = join(dir, 'README.md');
	writeFileSync(readmeFile, absoluteReadme(readFileSync(readmeFile, 'utf8'), slug, ref));
	console.log(`package.json and README.md point at github.com/${slug} (${ref})`);
}

module.exports = { absoluteReadme, releasePackageJson };

if (require.main === module) {
	try {
		main(process.argv.slice(2));
	} catch (error) {
		console.error(error.message);
		process.exitCode = 1;
	}
}
