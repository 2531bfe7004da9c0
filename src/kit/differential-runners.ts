/**
 * The two runners of a differential check, as the sandbox runs them: `node runner.mjs ROOT CASES`
 * and `python3 -I -B runner.py ROOT CASES`. Each imports the modules the cases name from ROOT (the
 * staged workspace, or the reference's folder), calls each case's function on its arguments and
 * prints one line per case: `<nonce> <index> <outcome>`, after a first line `differential <nonce>`
 * and before a last `<nonce> end`. The nonce is drawn when the runner starts, before any module is
 * imported, so nothing a module prints can pass for a result; the modules' own output is thrown
 * away. One process runs one side, so the agent's code never runs beside the reference's.
 *
 * CASES is gzip, base64url: `[{ "m": module, "f": function, "a": [argument, ...] }, ...]` in the
 * wire form (src/scoring/differential-wire.ts). An outcome is `{ "r": value }` (returned), `{ "e":
 * { "types": [class names, most derived first], "message": … } }` (threw), or `{ "m": why }` (the
 * function could not be called: its module does not load, it is missing, its arguments cannot be
 * made); `"a"` is added with the arguments as the call left them when it changed them. A
 * value whose JSON is longer than LONG is sent as a digest (`{ "$digest": …, "$head": … }`).
 *
 * Neither source may hold the literal workspace path: ground truth reads every `/workspace` in a
 * command as the staged copy's path.
 */

export const NODE_RUNNER = String.raw`// agent-bench differential runner: node runner.mjs ROOT CASES
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

const LONG = 1024;
const MAX_ITEMS = 5000;
const nonce = randomBytes(12).toString('hex');
const out = process.stdout.write.bind(process.stdout);
const write = (line) => out('\n' + line + '\n');
write('differential ' + nonce);
const [root, casesFile] = process.argv.slice(2);
const cases = JSON.parse(gunzipSync(Buffer.from(readFileSync(casesFile, 'utf8').trim(), 'base64url')).toString('utf8'));
const quiet = () => true;
process.stdout.write = quiet;
process.stderr.write = quiet;
for (const k of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table']) console[k] = () => {};

const text = (f) => { try { return String(f()); } catch { return '(unprintable)'; } };
function thrown(e) {
  const types = [];
  try {
    for (let p = Object.getPrototypeOf(Object(e)); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p))
      types.push(typeof p.constructor === 'function' ? p.constructor.name : '?');
  } catch {}
  return { types, message: text(() => (e instanceof Error ? e.message : e)).slice(0, 300) };
}
const byJson = (a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
function encode(v, depth = 0) {
  try {
    if (depth > 30) return { $other: '(nested too deep)' };
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : { $num: String(v) };
    if (v === undefined) return { $undefined: true };
    if (typeof v === 'bigint') return { $bigint: String(v) };
    if (typeof v === 'function') return { $function: v.name };
    if (typeof v !== 'object') return { $other: text(() => v) };
    if (Array.isArray(v)) {
      if (v.length > MAX_ITEMS) return { $other: 'an array of ' + v.length + ' items' };
      return Array.from(v, (x) => encode(x, depth + 1));
    }
    if (v instanceof Date) return { $datetime: Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString() };
    if (v instanceof Map) return { $map: [...v].map(([k, x]) => [encode(k, depth + 1), encode(x, depth + 1)]).sort(byJson) };
    if (v instanceof Set) return { $set: [...v].map((x) => encode(x, depth + 1)).sort(byJson) };
    if (v instanceof Promise) return { $other: 'a Promise' };
    const fields = {};
    for (const k of Object.keys(v).sort()) fields[k] = encode(v[k], depth + 1);
    const proto = Object.getPrototypeOf(v);
    if (proto === null || proto === Object.prototype) return { $object: fields };
    return { $object: fields, $class: text(() => proto.constructor.name) };
  } catch (e) {
    return { $other: '(unreadable: ' + thrown(e).message + ')' };
  }
}
function decode(v, mod) {
  if (Array.isArray(v)) return v.map((x) => decode(x, mod));
  if (v === null || typeof v !== 'object') return v;
  const [tag] = Object.keys(v);
  switch (tag) {
    case '$object': return Object.fromEntries(Object.entries(v.$object).map(([k, x]) => [k, decode(x, mod)]));
    case '$num': return Number(v.$num);
    case '$undefined': return undefined;
    case '$bigint': return BigInt(v.$bigint);
    case '$tuple': return v.$tuple.map((x) => decode(x, mod));
    case '$date': return new Date(v.$date);
    case '$datetime': return new Date(v.$datetime);
    case '$set': return new Set(v.$set.map((x) => decode(x, mod)));
    case '$map': return new Map(v.$map.map(([k, x]) => [decode(k, mod), decode(x, mod)]));
    case '$new': {
      if (typeof mod[v.$new] !== 'function') throw new Error('the module exports no ' + v.$new);
      return new mod[v.$new](...decode(v.args, mod));
    }
    default: throw new Error('unknown tag ' + tag);
  }
}
const digest = (value) => {
  const json = JSON.stringify(value);
  return { $digest: createHash('sha256').update(json).digest('hex').slice(0, 32), $head: json.slice(0, 160) };
};
// Each value on its own, so one value has one form whatever stands beside it.
function line(outcome) {
  const short = { ...outcome };
  for (const k of ['r', 'a']) if (k in short && JSON.stringify(short[k]).length > LONG) short[k] = digest(short[k]);
  return JSON.stringify(short);
}

const modules = new Map();
function load(rel) {
  if (!modules.has(rel))
    modules.set(rel, import(pathToFileURL(join(root, rel)).href).then((m) => ({ m }), (e) => ({ e })));
  return modules.get(rel);
}
async function run(c) {
  const loaded = await load(c.m);
  if ('e' in loaded) {
    const e = thrown(loaded.e);
    return { m: c.m + ' does not load (' + (e.types[0] ?? 'error') + ': ' + e.message + ')' };
  }
  if (typeof loaded.m[c.f] !== 'function') return { m: c.m + ' exports no function ' + c.f };
  let args;
  try {
    args = decode(c.a, loaded.m);
  } catch (e) {
    return { m: 'its arguments cannot be made (' + thrown(e).message + ')' };
  }
  const before = JSON.stringify(encode(args));
  let outcome;
  try {
    outcome = { r: encode(loaded.m[c.f](...args)) };
  } catch (e) {
    outcome = { e: thrown(e) };
  }
  const after = encode(args);
  if (JSON.stringify(after) !== before) outcome.a = after;
  return outcome;
}
for (let i = 0; i < cases.length; i++) write(nonce + ' ' + i + ' ' + line(await run(cases[i])));
write(nonce + ' end');
process.exit(0);
`;

export const PYTHON_RUNNER = String.raw`"""agent-bench differential runner: python3 -I -B runner.py ROOT CASES"""
import base64
import dataclasses
import datetime
import hashlib
import importlib
import io
import json
import math
import os
import sys
import zlib

LONG = 1024
MAX_ITEMS = 5000
NONCE = os.urandom(12).hex()


def write(line):
    data = ("\n" + line + "\n").encode("utf-8", "surrogatepass")
    while data:
        data = data[os.write(1, data):]


class Quiet(io.TextIOBase):
    def write(self, s):
        return len(s)


write("differential " + NONCE)
root, cases_file = sys.argv[1], sys.argv[2]
with open(cases_file, encoding="ascii") as f:
    packed = f.read().strip()
cases = json.loads(zlib.decompress(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4)), 16 + zlib.MAX_WBITS))
sys.path.insert(0, root)
sys.stdout = sys.stderr = Quiet()


def text(f):
    try:
        return str(f())
    except BaseException:
        return "(unprintable)"


def thrown(e):
    return {"types": [c.__name__ for c in type(e).__mro__[:-1]], "message": text(lambda: e)[:300]}


def by_json(v):
    return json.dumps(v, sort_keys=True)


def encode(v, depth=0):
    try:
        if depth > 30:
            return {"$other": "(nested too deep)"}
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return int(v) if abs(v) <= 2**53 else {"$int": str(v)}
        if isinstance(v, float):
            if math.isfinite(v):
                # 8.0 == 8 in Python: one value, one form.
                return int(v) if v.is_integer() and abs(v) <= 2**53 else v
            return {"$num": "NaN" if v != v else ("Infinity" if v > 0 else "-Infinity")}
        if isinstance(v, (list, tuple)) and len(v) > MAX_ITEMS:
            return {"$other": "a %s of %d items" % (type(v).__name__, len(v))}
        if isinstance(v, list):
            return [encode(x, depth + 1) for x in v]
        if isinstance(v, tuple):
            return {"$tuple": [encode(x, depth + 1) for x in v]}
        if isinstance(v, dict):
            return {"$dict": sorted(([encode(k, depth + 1), encode(x, depth + 1)] for k, x in v.items()), key=by_json)}
        if isinstance(v, (set, frozenset)):
            return {"$set": sorted((encode(x, depth + 1) for x in v), key=by_json)}
        if isinstance(v, datetime.datetime):
            return {"$datetime": v.isoformat()}
        if isinstance(v, datetime.date):
            return {"$date": v.isoformat()}
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            fields = {f.name: encode(getattr(v, f.name), depth + 1) for f in dataclasses.fields(v)}
            return {"$object": fields, "$class": type(v).__name__}
        if isinstance(v, (bytes, bytearray)):
            return {"$bytes": bytes(v).hex()}
        if callable(v):
            return {"$function": text(lambda: v.__name__)}
        return {"$other": text(lambda: repr(v))[:200], "$class": type(v).__name__}
    except BaseException as e:
        return {"$other": "(unreadable: %s)" % thrown(e)["message"]}


def decode(v, mod):
    if isinstance(v, list):
        return [decode(x, mod) for x in v]
    if not isinstance(v, dict):
        return v
    tag = next(iter(v))
    if tag == "$object":
        return {k: decode(x, mod) for k, x in v["$object"].items()}
    if tag == "$num":
        return float(v["$num"])
    if tag == "$undefined":
        return None
    if tag in ("$int", "$bigint"):
        return int(v[tag])
    if tag == "$tuple":
        return tuple(decode(x, mod) for x in v["$tuple"])
    if tag == "$date":
        return datetime.date.fromisoformat(v["$date"])
    if tag == "$datetime":
        return datetime.datetime.fromisoformat(v["$datetime"])
    if tag == "$set":
        return {decode(x, mod) for x in v["$set"]}
    if tag in ("$map", "$dict"):
        return {decode(k, mod): decode(x, mod) for k, x in v[tag]}
    if tag == "$new":
        if not callable(getattr(mod, v["$new"], None)):
            raise ValueError("the module has no " + v["$new"])
        return getattr(mod, v["$new"])(*decode(v["args"], mod))
    raise ValueError("unknown tag " + tag)


def digest(value):
    data = json.dumps(value, sort_keys=True)
    return {"$digest": hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:32], "$head": data[:160]}


def line(outcome):
    short = dict(outcome)
    for key in ("r", "a"):
        if key in short and len(json.dumps(short[key])) > LONG:
            short[key] = digest(short[key])
    return json.dumps(short)


modules = {}


def load(rel):
    if rel not in modules:
        try:
            modules[rel] = (importlib.import_module(rel[:-3].replace("/", ".")), None)
        except BaseException as e:
            modules[rel] = (None, e)
    return modules[rel]


def run(c):
    mod, error = load(c["m"])
    if error is not None:
        e = thrown(error)
        return {"m": "%s does not load (%s: %s)" % (c["m"], e["types"][0], e["message"])}
    fn = getattr(mod, c["f"], None)
    if not callable(fn):
        return {"m": "%s has no function %s" % (c["m"], c["f"])}
    try:
        args = decode(c["a"], mod)
    except BaseException as e:
        return {"m": "its arguments cannot be made (%s)" % thrown(e)["message"]}
    before = by_json(encode(args))
    try:
        outcome = {"r": encode(fn(*args))}
    except BaseException as e:
        outcome = {"e": thrown(e)}
    after = encode(args)
    if by_json(after) != before:
        outcome["a"] = after
    return outcome


for i, c in enumerate(cases):
    write("%s %d %s" % (NONCE, i, line(run(c))))
write(NONCE + " end")
os._exit(0)
`;
