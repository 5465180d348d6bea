/**
 * A certificate authority made for one test run, and a server certificate it signs for the
 * vendors' hosts: n8n trusts it through NODE_EXTRA_CA_CERTS, as a company proxy's CA is trusted.
 * openssl makes them (Debian ships it); nothing is committed, the folder goes with the run.
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

export interface TestCertificates {
	/** The CA's certificate, for NODE_EXTRA_CA_CERTS. */
	caFile: string;
	key: Buffer;
	cert: Buffer;
	/** Removes the folder the keys were made in. */
	remove(): void;
}

export function makeCertificates(hosts: string[]): TestCertificates {
	const dir = mkdtempSync(join(tmpdir(), 'unpod-twins-ca-'));
	const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
	try {
		openssl([
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-days',
			'2',
			'-keyout',
			'ca.key',
			'-out',
			'ca.pem',
			'-subj',
			'/CN=n8n-nodes-unpod test CA',
			'-addext',
			'basicConstraints=critical,CA:TRUE',
			'-addext',
			'keyUsage=critical,keyCertSign,cRLSign',
		]);
		openssl([
			'req',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-keyout',
			'host.key',
			'-out',
			'host.csr',
			'-subj',
			'/CN=vendor twins',
		]);
		writeFileSync(
			join(dir, 'host.ext'),
			`subjectAltName=${hosts.map((h) => (/^[\d.]+$/.test(h) ? `IP:${h}` : `DNS:${h}`)).join(',')}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
		);
		openssl([
			'x509',
			'-req',
			'-in',
			'host.csr',
			'-CA',
			'ca.pem',
			'-CAkey',
			'ca.key',
			'-CAcreateserial',
			'-days',
			'2',
			'-out',
			'host.pem',
			'-extfile',
			'host.ext',
		]);
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw new Error(`openssl could not make the test CA: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
	}
	return {
		caFile: join(dir, 'ca.pem'),
		key: readFileSync(join(dir, 'host.key')),
		cert: readFileSync(join(dir, 'host.pem')),
		remove: () => rmSync(dir, { recursive: true, force: true }),
	};
}
