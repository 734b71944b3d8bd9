import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch.js';

const script = fileURLToPath(new URL('../../scripts/install-pi.sh', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string> };

/** Where the dry runs look for an installed clew.service and config.txt (empty: a first install). */
interface Machine {
  unitDir?: string;
  bootConfig?: string;
  script?: string;
}

function installOn(machine: Machine, ...args: string[]) {
  const env = {
    ...process.env,
    CLEW_INSTALL_UNIT_DIR: machine.unitDir ?? scratchDir('clew-units-'),
    CLEW_INSTALL_BOOT_CONFIG: machine.bootConfig ?? path.join(scratchDir('clew-boot-'), 'config.txt'),
  };
  const result = spawnSync('bash', [machine.script ?? script, ...args], { encoding: 'utf8', env });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

function install(...args: string[]) {
  return installOn({}, ...args);
}

/** The unit file printed by --dry-run, as section → key → values. */
function unit(out: string): Record<string, Record<string, string[]>> {
  const text = /----- \S*\/clew\.service -----\n([\s\S]*?)----- end -----/.exec(out)?.[1];
  if (!text) throw new Error(`no unit file in the output:\n${out}`);
  const sections: Record<string, Record<string, string[]>> = {};
  let current: Record<string, string[]> = {};
  for (const line of text.split('\n')) {
    const section = /^\[(\w+)\]$/.exec(line);
    if (section) sections[section[1]!] = current = {};
    const kv = /^(\w+)=(.*)$/.exec(line);
    if (kv) (current[kv[1]!] ??= []).push(kv[2]!);
  }
  return sections;
}

describe('scripts/install-pi.sh', () => {
  const dry = install('--dry-run', '--prefix', '/opt/clew-test', '--port', '8099', '--pullups', '--pins', '5,6');

  it('a dry run succeeds and only prints: every change is a "+ " line', () => {
    expect(dry.code, dry.err).toBe(0);
    for (const command of ['useradd', 'usermod', 'npm ci', 'systemctl enable clew.service', 'install -d -m 0750 -o clew -g clew /var/lib/clew']) {
      expect(dry.out.split('\n').some((l) => l.startsWith('+ ') && l.includes(command)), command).toBe(true);
    }
    expect(dry.out).toContain('+ append "gpio=5,6=ip,pu" to');
  });

  it('the unit runs clew as user clew with gpio/video/dialout, PORT, CLEW_DATA and the /etc/clew config', () => {
    const { Unit, Service, Install } = unit(dry.out);
    expect(Unit!.After).toEqual(['network-online.target']);
    expect(Service!.User).toEqual(['clew']);
    expect(Service!.SupplementaryGroups).toEqual(['gpio video dialout']);
    expect(Service!.WorkingDirectory).toEqual(['/opt/clew-test']);
    expect(Service!.Environment).toEqual(expect.arrayContaining(['PORT=8099', 'CLEW_DATA=/var/lib/clew', 'CLEW_CONFIG=/etc/clew/config.json']));
    expect(Service!.ReadWritePaths).toEqual(['/var/lib/clew']);
    expect(Install!.WantedBy).toEqual(['multi-user.target']);
  });

  it('restarts on failure and stops gracefully (SIGTERM to the one clew process, then a timeout)', () => {
    const { Service } = unit(dry.out);
    expect(Service!.Restart).toEqual(['on-failure']);
    expect(Service!.KillSignal).toEqual(['SIGTERM']);
    expect(Service!.KillMode).toEqual(['mixed']);
    expect(Number(Service!.TimeoutStopSec![0])).toBeGreaterThanOrEqual(10);
    // /sys must stay writable for GPIO export.
    expect(Service!.ProtectKernelTunables).toBeUndefined();
  });

  it('ExecStart follows package.json and runs node itself, never npm (SIGTERM must reach clew, not npm and its shell)', () => {
    const { Service } = unit(dry.out);
    const start = pkg.scripts.start ?? '';
    const tsx = /^tsx\s+(\S+)$/.exec(start);
    const node = /^node(\s+.+)$/.exec(start);
    expect(tsx ?? node, `a start script clew's installer can run directly: ${start}`).not.toBeNull();
    if (tsx) expect(Service!.ExecStart![0]).toMatch(new RegExp(`node --import tsx ${tsx[1]!.replace('.', '\\.')}$`));
    else expect(Service!.ExecStart![0]).toBe(`${Service!.ExecStart![0]!.split(' ')[0]}${node![1]}`);
    expect(Service!.ExecStart![0]).toMatch(/^\/\S*node /);
  });

  it('installs dev dependencies exactly when the start script needs tsx or the dashboard is built', () => {
    const needsDev = (/\btsx\b/.test(pkg.scripts.start ?? '') && !pkg.dependencies.tsx) || Boolean(pkg.scripts.build);
    const ci = dry.out.split('\n').find((l) => l.startsWith('+ ') && l.includes('npm ci'))!;
    expect(ci.includes('--omit=dev')).toBe(!needsDev);
    expect(dry.out.includes('npm run build')).toBe(Boolean(pkg.scripts.build));
  });

  it('an existing config is kept, a missing one comes from device/config.example.json', () => {
    expect(dry.out).toMatch(/\+ install -m 0640 -g clew \S+\/device\/config\.example\.json \/etc\/clew\/config\.json/);
  });

  it('bad options are refused with what was wrong', () => {
    expect(install('--dry-run', '--port', 'eighty')).toMatchObject({ code: 1, err: expect.stringMatching(/--port must be 1-65535, got 'eighty'/) });
    expect(install('--dry-run', '--frobnicate')).toMatchObject({ code: 1, err: expect.stringMatching(/unknown option '--frobnicate'/) });
    expect(install('--dry-run', '--prefix')).toMatchObject({ code: 1, err: expect.stringMatching(/--prefix needs a value/) });
    expect(install('--dry-run', '--prefix', 'relative/dir')).toMatchObject({ code: 1, err: expect.stringMatching(/must be an absolute path/) });
    expect(install('--help')).toMatchObject({ code: 0, out: expect.stringMatching(/--dry-run/) });
    // An update empties --prefix: the data and the config may not live in it.
    expect(install('--dry-run', '--data', '/opt/clew/data')).toMatchObject({ code: 1, err: expect.stringMatching(/'\/opt\/clew\/data' is inside --prefix \/opt\/clew, which an update empties/) });
    expect(install('--dry-run', '--prefix', '/srv/clew', '--config-dir', '/srv/clew/')).toMatchObject({ code: 1, err: expect.stringMatching(/is inside --prefix/) });
    expect(install('--dry-run', '--data', '/opt/clew-data')).toMatchObject({ code: 0 });
  });

  it('paths a unit file cannot carry as written (spaces: systemd splits Environment= and ReadWritePaths= there) are refused', () => {
    for (const [option, dir] of [['--prefix', '/opt/my clew'], ['--data', '/var/lib/clew data'], ['--config-dir', '/etc/clew%i'], ['--data', "/srv/bob's"]]) {
      expect(install('--dry-run', option!, dir!), `${option} ${dir}`).toMatchObject({ code: 1, err: expect.stringContaining(`'${dir}' contains a space or one of`) });
    }
  });

  it("a checkout whose path has a ' in it: package.json is still read (tsx start, dashboard build), and an unreadable one stops the install", () => {
    const checkout = path.join(scratchDir('clew-src-'), "bob's clew");
    mkdirSync(path.join(checkout, 'scripts'), { recursive: true });
    mkdirSync(path.join(checkout, 'device'));
    copyFileSync(script, path.join(checkout, 'scripts', 'install-pi.sh'));
    copyFileSync(fileURLToPath(new URL('../../device/config.example.json', import.meta.url)), path.join(checkout, 'device', 'config.example.json'));
    copyFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), path.join(checkout, 'package.json'));
    const moved = { script: path.join(checkout, 'scripts', 'install-pi.sh') };
    const run = installOn(moved, '--dry-run');
    expect(run.code, run.err).toBe(0);
    expect(unit(run.out).Service!.ExecStart![0]).toBe(unit(dry.out).Service!.ExecStart![0]);
    expect(run.out.includes('npm run build')).toBe(Boolean(pkg.scripts.build));
    writeFileSync(path.join(checkout, 'package.json'), '{ "name": "clew", ');
    expect(installOn(moved, '--dry-run')).toMatchObject({ code: 1, err: expect.stringContaining(`cannot read ${checkout}/package.json`) });
  });

  it('an update keeps the installed port, data and config folders when run without the first run\'s options, and warns when an option moves them', () => {
    const unitDir = scratchDir('clew-units-');
    const first = installOn({ unitDir }, '--dry-run', '--port', '9000', '--data', '/srv/clew-data', '--config-dir', '/etc/clew-table');
    expect(first.code, first.err).toBe(0);
    writeFileSync(path.join(unitDir, 'clew.service'), /----- \S*\/clew\.service -----\n([\s\S]*?)----- end -----/.exec(first.out)![1]!);

    const again = installOn({ unitDir }, '--dry-run');
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/--port 9000, as installed/);
    const { Service } = unit(again.out);
    expect(Service!.Environment).toEqual(expect.arrayContaining(['PORT=9000', 'CLEW_DATA=/srv/clew-data', 'CLEW_CONFIG=/etc/clew-table/config.json']));
    expect(Service!.ReadWritePaths).toEqual(['/srv/clew-data']);
    expect(again.err).toBe('');

    const moved = installOn({ unitDir }, '--dry-run', '--port', '8080', '--data', '/var/lib/clew');
    expect(moved.code).toBe(0);
    expect(moved.err).toMatch(/WARNING: --port 8080 replaces 9000 of the installed service/);
    expect(moved.err).toMatch(/WARNING: --data \/var\/lib\/clew replaces \/srv\/clew-data of the installed service: the table's data stays in \/srv\/clew-data/);
    expect(unit(moved.out).Service!.Environment).toEqual(expect.arrayContaining(['PORT=8080', 'CLEW_DATA=/var/lib/clew']));
  });

  it("--pullups with other --pins replaces clew's earlier gpio= line in config.txt (and folds repeated ones), never adds a second", () => {
    const bootConfig = path.join(scratchDir('clew-boot-'), 'config.txt');
    const mark = '# clew buttons: inputs with internal pull-ups (buttons switch to GND)';
    // As older installers left it after --pullups, then --pullups --pins 5,6: two clew blocks.
    writeFileSync(bootConfig, ['dtparam=audio=on', '[all]', 'gpio=4=op,dh', '', mark, 'gpio=17,27,22,23=ip,pu', '', mark, 'gpio=5,6=ip,pu', ''].join('\n'));
    const run = installOn({ bootConfig }, '--dry-run', '--pullups', '--pins', '5,6,13,19');
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`+ replace clew's "gpio=17,27,22,23=ip,pu" with "gpio=5,6,13,19=ip,pu" in ${bootConfig}`);
    const written = new RegExp(`----- ${bootConfig} -----\\n([\\s\\S]*?)----- end -----`).exec(run.out)![1]!;
    expect(written.split('\n')).toEqual(['dtparam=audio=on', '[all]', 'gpio=4=op,dh', '', mark, 'gpio=5,6,13,19=ip,pu', '']);

    // Once it is there, the same run changes nothing; without --pins the installed pins are kept.
    writeFileSync(bootConfig, written);
    expect(installOn({ bootConfig }, '--dry-run', '--pullups', '--pins', '5,6,13,19').out).toContain(`${bootConfig} already has gpio=5,6,13,19=ip,pu`);
    expect(installOn({ bootConfig }, '--dry-run', '--pullups').out).toContain(`${bootConfig} already has gpio=5,6,13,19=ip,pu`);
  });

  it('--help says how to uninstall', () => {
    expect(install('--help').out).toMatch(/To uninstall[\s\S]*systemctl disable --now clew\.service/);
  });

  it('passes bash -n, and shellcheck when it is installed', () => {
    expect(spawnSync('bash', ['-n', script]).status).toBe(0);
    const check = spawnSync('shellcheck', [script], { encoding: 'utf8' });
    if (check.error) return; // shellcheck not on this machine
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
