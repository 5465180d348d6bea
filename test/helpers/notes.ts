/**
 * What a test measured on its way (requests, sizes, who ran what), kept out of `npm test`'s
 * output: written, one line each, to the file `UNPOD_TEST_NOTES` names, else nowhere. Figures
 * that matter are `npm run bench`'s.
 */
import { appendFileSync } from 'fs';

export function testNote(text: string): void {
	const file = process.env.UNPOD_TEST_NOTES;
	if (file) appendFileSync(file, `${text}\n`);
}
