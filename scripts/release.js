#!/usr/bin/env node
// `node scripts/release.js <owner/name> <ref> [dir]`: run by the publish workflow just before
// `npm publish`. It writes into package.json the GitHub repository the package is published
// from (npm's provenance check requires `repository.url` to match it), as the package's
// homepage and issue tracker too, and turns the README's
// relative links into absolute ones, which the npm page, unlike GitHub, cannot resolve.
// `node scripts/release.js notes <file>`, run after `npm publish --json > <file>`, prints the
// release notes' install section: the N8N_COMMUNITY_PACKAGES line with the published checksum.
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

/**
 * The environment line that makes n8n (2.21 and later) install this version, pinned to the
 * tarball's integrity: npm's `sha512-...` of the tarball `npm publish` sent, which n8n checks
 * against the registry before it installs.
 */
function communityPackagesLine(name, version, integrity) {
	if (!/^sha512-[A-Za-z0-9+/]+={0,2}$/.test(integrity ?? '')) throw new Error(`Not a sha512 integrity: ${integrity}`);
	return `N8N_COMMUNITY_PACKAGES=${JSON.stringify([{ name, version, checksum: integrity }])}`;
}

/** What `npm publish --json` or `npm pack --json` printed, as the one package it packed. */
function packedPackage(text) {
	const parsed = JSON.parse(text);
	const packed = Array.isArray(parsed) ? parsed[0] : parsed.integrity ? parsed : Object.values(parsed)[0];
	if (!packed?.name || !packed.version || !packed.integrity)
		throw new Error("No name, version and integrity in npm's answer");
	return packed;
}

/** The release notes' install section for the version just published. */
function releaseNotes(packed) {
	return [
		`## Install ${packed.name} ${packed.version}`,
		'',
		'In n8n 2.21 or later, from the environment (Docker, Kubernetes, queue mode: on the main and every worker):',
		'',
		'```',
		'N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true',
		communityPackagesLine(packed.name, packed.version, packed.integrity),
		'```',
		'',
		'Or in n8n: *Settings > Community Nodes > Install*, `' + packed.name + '`.',
		'',
	].join('\n');
}

function main([slug, ref, dir = join(__dirname, '..')]) {
	if (slug === 'notes') {
		// `node scripts/release.js notes <npm publish --json output>`
		process.stdout.write(releaseNotes(packedPackage(readFileSync(ref, 'utf8'))));
		return;
	}
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

module.exports = { absoluteReadme, communityPackagesLine, packedPackage, releaseNotes, releasePackageJson };

if (require.main === module) {
	try {
		main(process.argv.slice(2));
	} catch (error) {
		console.error(error.message);
		process.exitCode = 1;
	}
}
