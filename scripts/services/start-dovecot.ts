import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findSystemBinary, runAsScript, startOnFreePort, startServiceProcess } from './service-process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVICE_DIR = path.join(ROOT, 'tests/services/dovecot');
const READY_TIMEOUT_MS = 15_000;
const GREETING_TIMEOUT_MS = 1_000;
const INSTALL_HINT = 'apt-get install -y --no-install-recommends dovecot-imapd (or run: sudo bash scripts/services/ensure-system-packages.sh)';
const VMAIL_HINT = 'useradd --system --no-create-home --shell /usr/sbin/nologin vmail (or run: sudo bash scripts/services/ensure-system-packages.sh)';
const DEFAULT_USER = 'intake@example.test';

export type DovecotUser = { user: string; password: string };

export type StartedDovecot = {
  host: '127.0.0.1';
  port: number;
  /** Every user that can log in: the ones given (or the default `intake@example.test`), then those added. */
  users: DovecotUser[];
  /** Milliseconds from spawning Dovecot to its first IMAP greeting. */
  startMs: number;
  /** The scratch folder (configuration, users file, mail, log); stop() removes it. */
  dir: string;
  /** Adds a user to the running server (a random password unless given), who can log in at once. */
  addUser(user: string, password?: string): Promise<DovecotUser>;
  /** Stops Dovecot and removes its scratch folder; safe to call more than once. */
  stop(): Promise<void>;
};

export type StartDovecotOptions = {
  /** Users that can log in; default one, `intake@example.test`, with a random password. */
  users?: DovecotUser[];
  /** TCP port to try first; a busy or absent one means any free port. */
  port?: number;
};

/**
 * Starts a private Dovecot IMAP server on 127.0.0.1 (plain text, no TLS) in a fresh scratch folder, with a
 * passwd-file of test users whose mail lives in maildirs owned by the `vmail` user.
 */
export async function startDovecot(options: StartDovecotOptions = {}): Promise<StartedDovecot> {
  const users = (options.users ?? [{ user: DEFAULT_USER, password: generatePassword() }]).map((entry) => ({ ...entry }));
  users.forEach(checkUser);
  if (new Set(users.map(({ user }) => user)).size !== users.length) throw new Error('Each Dovecot user must be given once');
  const binary = findSystemBinary('dovecot', INSTALL_HINT);
  if (process.getuid?.() !== 0) {
    throw new Error('startDovecot must run as root: its Dovecot switches to the vmail user for mail and to dovecot for authentication');
  }
  const ids = systemIds();
  return startOnFreePort(options.port, (port) => startOnce(binary, port, users, ids));
}

type SystemIds = { vmailUid: number; vmailGid: number; dovecotGid: number };

async function startOnce(binary: string, port: number, users: DovecotUser[], ids: SystemIds): Promise<StartedDovecot> {
  const dir = await mkdtemp(path.join(tmpdir(), 'clearbase-dovecot-'));
  const usersPath = path.join(dir, 'users');
  const addedUsersDir = path.join(dir, 'users.d');
  const configPath = path.join(dir, 'dovecot.conf');
  try {
    // mkdtemp makes the folder 0700: the auth process (user dovecot) must reach the users file and the mail
    // processes (user vmail) their maildirs. 0711 lets them in without letting anyone list the folder.
    await chmod(dir, 0o711);
    checkReachable(dir);
    // Dovecot's unix sockets live in @DIR@/run and Linux caps a socket path at 107 bytes.
    if (Buffer.byteLength(path.join(dir, 'run', 'token-login', 'imap-urlauth-worker')) > 107) {
      throw new Error(`The Dovecot scratch folder ${dir} is too long for its unix sockets (107 bytes at most): set TMPDIR to a shorter folder`);
    }
    await mkdir(path.join(dir, 'mail'));
    await chown(path.join(dir, 'mail'), ids.vmailUid, ids.vmailGid);
    await writeFile(usersPath, users.map(userLine).join(''), { mode: 0o640 });
    await chown(usersPath, 0, ids.dovecotGid);
    await mkdir(addedUsersDir, { mode: 0o750 });
    await chown(addedUsersDir, 0, ids.dovecotGid);
    const template = await readFile(path.join(SERVICE_DIR, 'dovecot.conf.template'), 'utf8');
    await writeFile(configPath, template.replaceAll('@DIR@', dir).replaceAll('@PORT@', String(port)));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const logPath = path.join(dir, 'dovecot.log');

  // Its own process group: stop() signals the master and all its children at once, which ends them in a few
  // milliseconds; the master alone waits about a second for its log process.
  const { startMs, stop } = await startServiceProcess({
    name: 'Dovecot',
    binary,
    args: ['-F', '-c', configPath],
    dir,
    processGroup: true,
    readyTimeoutMs: READY_TIMEOUT_MS,
    isReady: () => greets(port),
    readiness: { before: `greeting on port ${port}`, didNot: `greet on 127.0.0.1:${port}` },
    readLog: async (output) => [output.trim(), (await readFile(logPath, 'utf8').catch(() => '')).trim()].filter(Boolean).join('\n'),
    logName: 'output and log',
  });

  const addUser = async (user: string, password: string = generatePassword()): Promise<DovecotUser> => {
    const entry = { user, password };
    checkUser(entry);
    if (users.some((existing) => existing.user === user)) throw new Error(`Dovecot user ${user} exists already`);
    // A file of its own, not a line appended to `users`: Dovecot looks at a known passwd-file at most once a
    // second, so a login right after an append could still be refused; a new file is read at first use.
    const file = path.join(addedUsersDir, user);
    await writeFile(file, userLine(entry), { mode: 0o640, flag: 'wx' });
    await chown(file, 0, ids.dovecotGid);
    users.push(entry);
    return entry;
  };

  return { host: '127.0.0.1', port, users, startMs, dir, addUser, stop };
}

/**
 * True once Dovecot sends its real IMAP greeting. While its auth process is still starting, the login
 * process first answers `* OK Waiting for authentication process to respond..`: that one does not count.
 */
function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    let done = false;
    const finish = (ready: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (ready) socket.end('r LOGOUT\r\n');
      else socket.destroy();
      resolve(ready);
    };
    const timer = setTimeout(() => finish(false), GREETING_TIMEOUT_MS);
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
      const lines = received.split('\r\n').slice(0, -1);
      if (lines.some((line) => line.startsWith('* OK') && !/Waiting for authentication/i.test(line))) finish(true);
      else if (lines.some((line) => !line.startsWith('* OK'))) finish(false);
    });
    socket.once('error', () => finish(false));
    socket.once('close', () => finish(false));
  });
}

function userLine({ user, password }: DovecotUser): string {
  return `${user}:{PLAIN}${password}\n`;
}

/** The passwd-file format has no escaping, so no colons or line breaks; a user added later also names a file. */
function checkUser({ user, password }: DovecotUser): void {
  if (!/^[^:\s/]+$/.test(user) || user === '.' || user === '..') {
    throw new Error(`A Dovecot user name must be non-empty, without colons, slashes or white space: ${JSON.stringify(user)}`);
  }
  if (!password || /[:\r\n]/.test(password)) throw new Error(`The password of Dovecot user ${user} must be non-empty, without colons or line breaks`);
}

function generatePassword(): string {
  return randomBytes(12).toString('hex');
}

/** Every folder above the scratch folder must let other users (vmail, dovecot) pass, or logins fail later and obscurely. */
function checkReachable(dir: string): void {
  for (let folder = path.dirname(dir); ; folder = path.dirname(folder)) {
    if ((statSync(folder).mode & 0o001) === 0) {
      throw new Error(`${folder} is not traversable by other users, so Dovecot's vmail and dovecot users cannot reach ${dir}: set TMPDIR to a folder such as /tmp`);
    }
    if (folder === path.dirname(folder)) return;
  }
}

/** The ids of the vmail user and group (owners of the mail) and of the dovecot group (reader of the users file). */
function systemIds(): SystemIds {
  const passwd = readFileSync('/etc/passwd', 'utf8');
  const group = readFileSync('/etc/group', 'utf8');
  const field = (table: string, name: string, index: number) => {
    const entry = table.split('\n').find((line) => line.split(':')[0] === name);
    const value = entry?.split(':')[index];
    return value === undefined ? undefined : Number(value);
  };
  const vmailUid = field(passwd, 'vmail', 2);
  const vmailGid = field(passwd, 'vmail', 3);
  if (vmailUid === undefined || vmailGid === undefined) throw new Error(`The vmail user that owns the test mail is missing. Create it with: ${VMAIL_HINT}`);
  const dovecotGid = field(group, 'dovecot', 2);
  if (dovecotGid === undefined) throw new Error(`The dovecot group is missing: reinstall Dovecot with: ${INSTALL_HINT}`);
  return { vmailUid, vmailGid, dovecotGid };
}

async function main(): Promise<StartedDovecot> {
  const dovecot = await startDovecot({ port: 10143 });
  const logins = dovecot.users.map(({ user, password }) => `  ${user} / ${password}`).join('\n');
  process.stdout.write(`Dovecot ready in ${dovecot.startMs.toFixed(0)} ms on imap://127.0.0.1:${dovecot.port} (plain text)\n${logins}\nCtrl-C stops it.\n`);
  return dovecot;
}

runAsScript(import.meta.url, main);
