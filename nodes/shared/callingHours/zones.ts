/**
 * Where a phone number rings: the IANA zones it may ring in, and for +1 numbers the state or
 * province of its area code, from Google's libphonenumber data generated into the package
 * (phoneZones.data.ts). A number takes the zones of its longest listed prefix, as
 * libphonenumber's own time-zone mapper does; a number with no country code rings nowhere known.
 */
import { NORTH_AMERICAN_REGIONS, ZONE_PREFIXES, ZONES } from './phoneZones.data';

export interface RingPlace {
	zones: string[];
	/** The country calling code the zones were found under (the first digits of the prefix). */
	countryCode?: string;
	/** For +1 numbers: the area code's state or province (`FL`), or its country (`Jamaica`). */
	region?: string;
}

/** The prefix table, read once for a run of a node (about a millisecond). */
export class PhonePlaces {
	private byPrefix = new Map<string, string[]>();
	private regions = new Map<string, string>();
	private longest = 0;
	private placesByKey = new Map<string, RingPlace>();

	constructor() {
		for (const entry of ZONE_PREFIXES.split(',')) {
			const [prefix, zones] = entry.split(':');
			this.byPrefix.set(
				prefix,
				zones.split('.').map((i) => ZONES[parseInt(i, 36)]),
			);
			this.longest = Math.max(this.longest, prefix.length);
		}
		for (const entry of NORTH_AMERICAN_REGIONS.split(',')) {
			const [area, region] = entry.split(':');
			this.regions.set(area, region);
		}
	}

	/** Where `number` (E.164: a + and digits) may ring; undefined when it has no + or no listed prefix. */
	of(number: string): RingPlace | undefined {
		if (!/^\+\d{7,15}$/.test(number)) return undefined;
		const digits = number.slice(1);
		for (let n = Math.min(this.longest, digits.length); n > 0; n--) {
			const prefix = digits.slice(0, n);
			const zones = this.byPrefix.get(prefix);
			if (!zones) continue;
			const countryCode = this.countryCodeOf(digits);
			const region = countryCode === '1' ? this.regions.get(digits.slice(1, 4)) : undefined;
			// One place per prefix and area code: the numbers of a place share it.
			const key = `${prefix} ${region ?? ''}`;
			let place = this.placesByKey.get(key);
			if (!place) {
				place = { zones, countryCode, ...(region ? { region } : {}) };
				this.placesByKey.set(key, place);
			}
			return place;
		}
		return undefined;
	}

	/** Country calling codes are prefix-free: the shortest listed prefix of one to three digits. */
	private countryCodeOf(digits: string): string | undefined {
		for (let n = 1; n <= 3; n++) if (this.byPrefix.has(digits.slice(0, n))) return digits.slice(0, n);
		return undefined;
	}
}
