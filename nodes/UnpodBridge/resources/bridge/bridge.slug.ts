/** A bridge's slug: checked when the user gives one, made from the name when not. Pure. */

/**
 * The longest slug: Unpod's `VoiceBridge.slug` is `CharField(max_length=50)` (its backend,
 * `parvbhullar/unpod` 15cd2ef, `apps/backend-core/unpod/telephony/models.py` line 46).
 */
export const SLUG_MAX_LENGTH = 50;

/** Django's `validate_slug`: letters, digits, underscores and hyphens. */
const SLUG = /^[-a-zA-Z0-9_]+$/;

/**
 * The slug made from a bridge's name: lowercase, accents dropped, letters and digits kept, every
 * other run of characters one `-`, none at either end, at most SLUG_MAX_LENGTH characters.
 * Letters with no ASCII form are dropped, as Django's `slugify` drops them (`Straße`: `strae`).
 * Empty when the name has no letter or digit to keep (`"!!!"`, or a name in another script).
 */
export function slugFromName(name: string): string {
	return name
		.normalize('NFKD')
		.replace(/[^\x20-\x7e]/gu, (c) => (/[\p{L}\p{M}\p{N}]/u.test(c) ? '' : '-'))
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+/, '')
		.slice(0, SLUG_MAX_LENGTH)
		.replace(/-+$/, '');
}

/** Why a slug the user gave cannot be sent, or undefined when it can. */
export function slugProblem(slug: string): string | undefined {
	if (slug.length > SLUG_MAX_LENGTH) return `Slug "${slug}" is longer than ${SLUG_MAX_LENGTH} characters`;
	if (!SLUG.test(slug)) return `Slug "${slug}" may hold only letters, digits, "-" and "_"`;
	return undefined;
}

/** Says that a slug is taken, naming the field the user can change. */
export function slugTakenMessage(slug: string, derived: boolean): string {
	return derived
		? `Slug "${slug}", made from the Name, is already used by another bridge: set a Slug, or another Name`
		: `Slug "${slug}" is already used by another bridge: set another Slug`;
}
