// Offline npm and npx for the sandbox (no registry can be reached from it). They do what needs no
// network the way npm 9 does it: package.json scripts (`npm test`, `npm run X`, pre/post scripts,
// node_modules/.bin on PATH), `npx <bin>` from ./node_modules/.bin or the image (`npx tsc`), and
// `npm init -y`; anything that would download says in one line that the network is off.
// Debian's own npm would add ~170 MB (350 packages) to the image and still wait on the registry.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const OFFLINE = 'the network is off in this sandbox, so nothing can be downloaded';
const VERSION = '9.2.0-agent-bench-offline';

function fail(prog, message, code = 1) {
  process.stderr.write(`${prog}: ${message}\n`);
  process.exit(code);
}

// The project: the nearest directory with a package.json, as npm's local prefix.
function projectDir(from) {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (dir === path.dirname(dir)) return null;
  }
}

function readPackage(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch (err) {
    fail('npm', `cannot read ${path.join(dir, 'package.json')}: ${err.message}`);
  }
}

// node_modules/.bin of the directory and of every ancestor, nearest first, as npm puts on PATH.
function binDirs(from) {
  const dirs = [];
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    dirs.push(path.join(dir, 'node_modules', '.bin'));
    if (dir === path.dirname(dir)) return dirs;
  }
}

const withBins = (from, env) => ({ ...env, PATH: [...binDirs(from), env.PATH ?? ''].join(':') });
const shellQuote = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

function exitLike(r) {
  if (r.error) fail('npm', r.error.message);
  process.exit(r.status ?? 128 + (require('node:os').constants.signals[r.signal] ?? 1));
}

/** npm run-script: the script in a shell, in the project directory, with pre/post scripts. */
function runScript(name, args, opts) {
  const dir = projectDir(opts.cwd);
  if (dir === null) fail('npm', `no package.json in ${opts.cwd} or above (npm ERR! enoent)`, 254);
  const pkg = readPackage(dir);
  const scripts = pkg.scripts ?? {};
  if (scripts[name] === undefined && name === 'start' && fs.existsSync(path.join(dir, 'server.js')))
    scripts.start = 'node server.js';
  if (scripts[name] === undefined) {
    if (opts.ifPresent) process.exit(0);
    process.stderr.write(
      `npm ERR! Missing script: "${name}"\nnpm ERR!\n` +
        'npm ERR! To see a list of scripts, run:\nnpm ERR!   npm run\n',
    );
    process.exit(1);
  }
  const id = pkg.name ? `${pkg.name}${pkg.version ? `@${pkg.version}` : ''} ` : '';
  for (const [event, extra] of [
    [`pre${name}`, []],
    [name, args],
    [`post${name}`, []],
  ]) {
    if (scripts[event] === undefined) continue;
    const command = [scripts[event], ...extra.map(shellQuote)].join(' ');
    if (!opts.silent) process.stdout.write(`\n> ${id}${event}\n> ${command}\n\n`);
    const env = withBins(dir, {
      ...process.env,
      npm_lifecycle_event: event,
      npm_lifecycle_script: scripts[event],
      npm_package_name: pkg.name ?? '',
      npm_package_version: pkg.version ?? '',
      npm_package_json: path.join(dir, 'package.json'),
      INIT_CWD: opts.cwd,
    });
    const r = spawnSync('/bin/sh', ['-c', command], { cwd: dir, env, stdio: 'inherit' });
    if (r.status !== 0) exitLike(r);
  }
  process.exit(0);
}

function listScripts(opts) {
  const dir = projectDir(opts.cwd);
  if (dir === null) fail('npm', `no package.json in ${opts.cwd} or above`, 254);
  const pkg = readPackage(dir);
  const entries = Object.entries(pkg.scripts ?? {});
  if (entries.length === 0) return process.exit(0);
  process.stdout.write(`Scripts available in ${pkg.name ?? dir} via \`npm run-script\`:\n`);
  for (const [name, command] of entries) process.stdout.write(`  ${name}\n    ${command}\n`);
  process.exit(0);
}

function init(args, opts) {
  if (!args.some((a) => a === '-y' || a === '--yes'))
    fail('npm', 'init: this sandbox has no terminal to answer questions; use `npm init -y`');
  const file = path.join(opts.cwd, 'package.json');
  if (fs.existsSync(file)) fail('npm', `init: ${file} already exists`);
  const pkg = {
    name: path.basename(opts.cwd).toLowerCase().replace(/[^a-z0-9._-]+/g, '-'),
    version: '1.0.0',
    description: '',
    main: 'index.js',
    scripts: { test: 'echo "Error: no test specified" && exit 1' },
    keywords: [],
    author: '',
    license: 'ISC',
  };
  const text = `${JSON.stringify(pkg, null, 2)}\n`;
  fs.writeFileSync(file, text);
  process.stdout.write(`Wrote to ${file}:\n\n${text}\n`);
  process.exit(0);
}

// `npm install` / `npm ci` with nothing to fetch: every dependency is already in node_modules.
function install(positional, opts) {
  const dir = projectDir(opts.cwd);
  if (positional.length > 0 || dir === null)
    fail('npm', `install: ${OFFLINE}; use what is in node_modules or installed in the image`);
  const pkg = readPackage(dir);
  const wanted = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
  const missing = wanted.filter((n) => !fs.existsSync(path.join(dir, 'node_modules', n, 'package.json')));
  if (missing.length > 0)
    fail('npm', `install: ${OFFLINE}; missing from node_modules: ${missing.join(', ')}`);
  process.stdout.write(`up to date, ${wanted.length} packages already in node_modules (offline)\n`);
  process.exit(0);
}

function list(opts) {
  const dir = projectDir(opts.cwd) ?? opts.cwd;
  const modules = path.join(dir, 'node_modules');
  const names = [];
  for (const entry of fs.existsSync(modules) ? fs.readdirSync(modules) : []) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@'))
      names.push(...fs.readdirSync(path.join(modules, entry)).map((n) => `${entry}/${n}`));
    else names.push(entry);
  }
  process.stdout.write(`${dir}\n`);
  for (const name of names.sort()) {
    let version = '';
    try {
      version = `@${JSON.parse(fs.readFileSync(path.join(modules, name, 'package.json'), 'utf8')).version}`;
    } catch {}
    process.stdout.write(`+-- ${name}${version}\n`);
  }
  if (names.length === 0) process.stdout.write('`-- (empty)\n');
  process.exit(0);
}

// Splits npm's own options from the rest; `--` ends them (what follows goes to the script).
function parseOptions(argv) {
  const opts = { cwd: process.cwd(), silent: false, ifPresent: false };
  const positional = [];
  let passthrough = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      passthrough = argv.slice(i + 1);
      break;
    }
    if (['-s', '--silent', '-q', '--quiet', '--loglevel=silent'].includes(a)) opts.silent = true;
    else if (a === '--if-present') opts.ifPresent = true;
    else if (a === '--prefix' || a === '-C') opts.cwd = path.resolve(argv[++i] ?? '.');
    else if (a.startsWith('--prefix=')) opts.cwd = path.resolve(a.slice('--prefix='.length));
    else if (a === '-y' || a === '--yes') positional.push(a);
    else if (!a.startsWith('-') || a === '-') positional.push(a);
    // Any other option is npm configuration, as in npm 7+ (`npm test --watch` does not pass it on).
  }
  return { opts, positional, passthrough };
}

function npm(argv) {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(
      `npm (offline, ${VERSION}): run-script, test, start, stop, restart, exec, init -y, ls; ` +
        `install only checks node_modules (${OFFLINE})\n`,
    );
    process.exit(0);
  }
  if (argv[0] === '-v' || argv[0] === '--version') {
    process.stdout.write(`${VERSION}\n`);
    process.exit(0);
  }
  const [command, ...rest] = argv;
  if (command === 'exec' || command === 'x') return npx(rest);
  const { opts, positional, passthrough } = parseOptions(rest);
  switch (command) {
    case 'run':
    case 'run-script':
    case 'rum':
    case 'urn': {
      const [name, ...args] = positional.filter((a) => a !== '-y' && a !== '--yes');
      return name === undefined ? listScripts(opts) : runScript(name, [...args, ...passthrough], opts);
    }
    case 'test':
    case 't':
    case 'tst':
    case 'start':
    case 'stop':
    case 'restart': {
      const name = command === 't' || command === 'tst' ? 'test' : command;
      return runScript(name, [...positional, ...passthrough], opts);
    }
    case 'init':
    case 'create':
      return init(positional, opts);
    case 'install':
    case 'i':
    case 'in':
    case 'ci':
    case 'clean-install':
    case 'add':
      return install(positional, opts);
    case 'ls':
    case 'list':
    case 'la':
    case 'll':
      return list(opts);
    default:
      fail('npm', `${command}: not available offline (${OFFLINE})`);
  }
}

// `npx [options] <command>[@version] [args...]`: a binary from node_modules/.bin or the image.
function npx(argv) {
  let i = 0;
  const packages = [];
  let shellCommand = null;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-p' || a === '--package') packages.push(argv[++i] ?? '');
    else if (a.startsWith('--package=')) packages.push(a.slice('--package='.length));
    else if (a === '-c' || a === '--call') shellCommand = argv[++i] ?? '';
    else if (!a.startsWith('-')) break;
  }
  const cwd = process.cwd();
  const env = withBins(cwd, process.env);
  if (shellCommand !== null) exitLike(spawnSync('/bin/sh', ['-c', shellCommand], { env, stdio: 'inherit' }));
  const [spec, ...args] = argv.slice(i);
  if (spec === undefined) fail('npx', 'which command? usage: npx <command> [args...]');
  // `tsc@5`, `@scope/tool@1`: the binary is the name without the version (and without the scope).
  const name = spec.replace(/(.)@[^/]*$/, '$1').replace(/^@[^/]+\//, '');
  const found = env.PATH.split(':')
    .filter((d) => d !== '')
    .map((d) => path.join(d, name))
    .find(isExecutable);
  if (found === undefined) {
    const what = packages.length > 0 ? `${packages.join(', ')} (for ${name})` : name;
    fail('npx', `${what} is not installed here (not in node_modules/.bin nor in the image), and ${OFFLINE}`);
  }
  exitLike(spawnSync(found, args, { env, stdio: 'inherit' }));
}

function isExecutable(p) {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

module.exports = { npm, npx };
