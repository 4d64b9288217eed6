/**
 * A throwaway CA and a leaf certificate for 127.0.0.1 / ::1 / localhost, made
 * with the system's `openssl`. The server under test trusts the CA through
 * NODE_EXTRA_CA_CERTS (Node reads it at process start).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCerts {
  dir: string;
  caFile: string;
  ca: string;
  key: string;
  cert: string;
  remove(): void;
}

export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'websub-certs-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=websub test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    at('leaf.key'),
    '-out',
    at('leaf.csr'),
    '-subj',
    '/CN=localhost',
  );
  writeFileSync(
    at('leaf.ext'),
    'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    at('leaf.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('leaf.pem'),
    '-days',
    '2',
    '-extfile',
    at('leaf.ext'),
  );
  return {
    dir,
    caFile: at('ca.pem'),
    ca: readFileSync(at('ca.pem'), 'utf8'),
    key: readFileSync(at('leaf.key'), 'utf8'),
    cert: readFileSync(at('leaf.pem'), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
