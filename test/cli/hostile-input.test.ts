/**
 * The built CLI against hostile input, in real processes bounded by hang
 * guards: source trees that link to `/` or nest 2,000 directories deep, a
 * crafted `dense.usearch` whose CRC is fixed up in the manifest, and an
 * endless standard input for `query -`.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const TINY = join(ROOT, 'test', 'fixtures', 'tiny-encoder');
const tmp = mkdtempSync(join(tmpdir(), 'premise-hostile-'));
const LEMMA = 'namespace Deep\n\ntheorem deep_one : True := trivial\n\nend Deep\n';

/** The CLI, killed after `guardMs` (a hang guard: the test then fails on the signal). */
function run(args: string[], guardMs = 60_000) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT, timeout: guardMs, maxBuffer: 64 * 2 ** 20 });
  return { code: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  if (!/\/dist\/cli\.js$/.test(CLI) || spawnSync(process.execPath, [CLI, '--help']).status !== 0) throw new Error('dist/cli.js is missing: run `npx tsup` first');
});

describe('extract on hostile trees', () => {
  it('a link to / is not followed, and is counted', { timeout: 90_000 }, () => {
    const dir = join(tmp, 'root-link');
    mkdirSync(dir);
    writeFileSync(join(dir, 'One.lean'), LEMMA);
    symlinkSync('/', join(dir, 'everything'));
    const r = run(['extract', dir]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n').map((l) => JSON.parse(l).name)).toEqual(['Deep.deep_one']);
    expect(r.err).toContain('1 links leaving their source not followed (--follow-links)');
  });

  it('a .lake/packages/<pkg> link to / is not walked as a package, and is counted', { timeout: 90_000 }, () => {
    const dir = join(tmp, 'pkg-root-link');
    mkdirSync(join(dir, '.lake', 'packages'), { recursive: true });
    writeFileSync(join(dir, 'One.lean'), LEMMA);
    symlinkSync('/', join(dir, '.lake', 'packages', 'everything'));
    const r = run(['extract', dir]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n').map((l) => JSON.parse(l).name)).toEqual(['Deep.deep_one']);
    expect(r.err).toContain('1 warning');
  });

  it('--follow-links follows a link out of the source', { timeout: 90_000 }, () => {
    const outside = join(tmp, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'Far.lean'), LEMMA.replaceAll('deep_one', 'far_one'));
    const dir = join(tmp, 'near');
    mkdirSync(dir);
    writeFileSync(join(dir, 'One.lean'), LEMMA);
    symlinkSync(outside, join(dir, 'far'));
    const names = (r: ReturnType<typeof run>) => r.out.trim().split('\n').map((l) => JSON.parse(l).name).sort();
    expect(names(run(['extract', dir]))).toEqual(['Deep.deep_one']);
    const r = run(['extract', '--follow-links', dir]);
    expect(r.code).toBe(0);
    expect(names(r)).toEqual(['Deep.deep_one', 'Deep.far_one']);
    expect(r.err).not.toContain('not followed');
  });

  it('a 2,000-level directory chain is walked well inside the guard', { timeout: 90_000 }, () => {
    const dir = join(tmp, 'deep');
    const chain = Array.from({ length: 2000 }, () => 'd').join('/');
    mkdirSync(join(dir, chain), { recursive: true });
    writeFileSync(join(dir, chain, 'Deep.lean'), LEMMA);
    try {
      const r = run(['extract', dir]);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out).module).toBe(`${chain.split('/').join('.')}.Deep`);
    } finally {
      execFileSync('rm', ['-rf', dir]); // Node's recursive rm overflows its stack on 2,000 levels
    }
  });
});

describe('a crafted dense.usearch (CRC fixed up in the manifest)', () => {
  const index = join(tmp, 'dense');
  beforeAll(() => {
    const r = run(['index', SAMPLE, '--out', index, '--encoder', TINY]);
    if (r.code !== 0) throw new Error(r.err);
  }, 120_000);

  /** A copy of the index with the u32 at `offset` of dense.usearch set to `value` and the manifest's CRC and size made to match. */
  function crafted(name: string, offset: number, value: number): string {
    const dir = join(tmp, name);
    execFileSync('cp', ['-r', index, dir]);
    const file = join(dir, 'dense.usearch');
    const buf = readFileSync(file);
    buf.writeUInt32LE(value, offset);
    writeFileSync(file, buf);
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    m.files['dense.usearch'] = { bytes: buf.length, crc32: crc32(buf) };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    return dir;
  }

  it.each([
    ['rows', 0],
    ['bytes per row', 4],
  ])('its %s set to 0x7fffffff: query exits 1 with a clean error, no signal', (_, offset) => {
    const dir = crafted(`crafted-${offset}`, offset, 0x7fffffff);
    const r = run(['query', '--index', dir, 'a b : ℕ\n⊢ a + b = b + a'], 30_000);
    expect(r.signal).toBeNull();
    expect(r.err).toContain(`corrupt or unreadable index file ${join(dir, 'dense.usearch')}`);
    expect(r.code).toBe(1);
    // the HTTP server refuses it the same way, before listening
    const h = run(['http', '--index', dir, '--port', '0'], 30_000);
    expect(h.signal).toBeNull();
    expect(h.err).toContain('corrupt or unreadable index file');
    expect(h.code).toBe(1);
  });

  it('the index as built still opens', () => {
    const r = run(['query', '--index', index, '--k', '1', '--json', 'a b : ℕ\n⊢ a + b = b + a'], 30_000);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toHaveLength(1);
  });
});

describe('query - on an endless standard input', () => {
  it('stops reading at the query limit and answers', { timeout: 90_000 }, async () => {
    const index = join(tmp, 'sparse');
    expect(run(['index', SAMPLE, '--out', index, '--no-dense']).code).toBe(0);
    // a writer that never stops (1 MiB every 20 ms, so that a reader that buffers everything grows slowly enough to be stopped)
    const writer = spawn(process.execPath, ['-e', "const b = Buffer.alloc(1 << 20, 'length append '); const w = () => process.stdout.write(b, () => setTimeout(w, 20)); process.stdout.on('error', () => process.exit(0)); w();"], { stdio: ['ignore', 'pipe', 'inherit'] });
    const query = spawn(process.execPath, [CLI, 'query', '--index', index, '--k', '1', '--json', '-'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    writer.stdout.pipe(query.stdin);
    query.stdin.on('error', () => {}); // EPIPE once the query has stopped reading
    let out = '';
    let err = '';
    query.stdout.on('data', (d) => (out += d));
    query.stderr.on('data', (d) => (err += d));
    const guard = setTimeout(() => query.kill('SIGKILL'), 60_000); // hang guard
    const [code, signal] = await new Promise<[number | null, string | null]>((res) => query.on('exit', (c, s) => res([c, s])));
    clearTimeout(guard);
    writer.kill();
    expect(signal, err).toBeNull();
    expect(code, err).toBe(0);
    expect(JSON.parse(out)).toHaveLength(1);
  });
});
