/**
 * An SSH server on a loopback port for tests of `--docker-host ssh://`: its own host key, one user
 * key for root held by its own ssh-agent (which is how the docker client authenticates), and the
 * Docker engine its sessions reach (DOCKER_HOST set for them), in a temporary folder. Needs root and
 * OpenSSH's server; whyNoSshServer() says why not, for a skip. stop() ends sshd and the agent.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const SSHD = '/usr/sbin/sshd';

export interface SshServer {
  /** `ssh://root@127.0.0.1:PORT` */
  url: string;
  /** What a client needs in its environment: SSH_AUTH_SOCK of the agent holding the key. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** null when an SSH server can be started here; else why not, for the skip message. */
export function whyNoSshServer(): string | null {
  if (process.getuid?.() !== 0) return 'needs root to start sshd';
  if (!existsSync(SSHD)) return 'OpenSSH server is not installed (apt-get install openssh-server)';
  const onPath = (name: string): boolean =>
    (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, name)));
  for (const tool of ['ssh', 'ssh-keygen', 'ssh-agent', 'ssh-add'])
    if (!onPath(tool)) return `${tool} is not installed`;
  return null;
}

export async function startSshServer(o: { port: number; dockerHost: string }): Promise<SshServer> {
  const dir = mkdtempSync(join(tmpdir(), 'ab-sshd-'));
  const keygen = (file: string): void =>
    void execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, file)]);
  keygen('host_key');
  keygen('user_key');
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_key.pub')));
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      'ListenAddress 127.0.0.1',
      `Port ${o.port}`,
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      // The temporary folder is not root's home: its modes are not what sshd insists on there.
      'StrictModes no',
      `SetEnv DOCKER_HOST=${o.dockerHost}`,
      '',
    ].join('\n'),
  );
  // sshd's privilege separation directory.
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const children: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const sock = join(dir, 'agent.sock');
    children.push(spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' }));
    children.push(spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: 'ignore' }));
    const env = { SSH_AUTH_SOCK: sock };
    await until(() => existsSync(sock), 'ssh-agent did not start');
    execFileSync('ssh-add', ['-q', join(dir, 'user_key')], {
      env: { ...process.env, ...env },
      stdio: 'pipe',
    });
    const probe = (): boolean => {
      try {
        execFileSync(
          'ssh',
          [
            ...[
              '-o',
              'StrictHostKeyChecking=no',
              '-o',
              'UserKnownHostsFile=/dev/null',
              '-o',
              'BatchMode=yes',
            ],
            ...['-p', String(o.port), 'root@127.0.0.1', 'true'],
          ],
          { env: { ...process.env, ...env }, stdio: 'ignore', timeout: 10_000 },
        );
        return true;
      } catch {
        return false;
      }
    };
    await until(probe, `sshd did not answer on 127.0.0.1:${o.port}`);
    return { url: `ssh://root@127.0.0.1:${o.port}`, env, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function until(ok: () => boolean, failure: string): Promise<void> {
  const started = Date.now();
  while (!ok()) {
    if (Date.now() - started > 20_000) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
