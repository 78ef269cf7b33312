/**
 * `premise-lsp http`, the LeanHammer-compatible premise selection API, as the
 * built CLI over real HTTP on the bundled sample index.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleHttp } from './http-server.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'premise-http-'));
const index = join(tmp, 'index');
let server: ChildProcess;
let base = '';

beforeAll(async () => {
  ({ server, base } = await startSampleHttp(CLI, ROOT, index, ['--max-new-premises', '3']));
});

afterAll(() => {
  server?.kill();
  rmSync(tmp, { recursive: true, force: true });
});

const get = async (path: string) => {
  const r = await fetch(base + path);
  return { status: r.status, body: await r.json() };
};
const retrieve = async (body: unknown) => {
  const r = await fetch(`${base}/retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
};

/**
 * Lean 4's `Json.compress` (src/Lean/Data/Json/Printer.lean), which LeanHammer's client
 * uses to write its body: no spaces; an object's fields in descending key order (`Json.mkObj`
 * keeps them in a tree sorted by key, and `compress` folds it onto a list, reversing it);
 * strings escape `"`, `\`, newline and return, and the other characters below U+0020 as
 * `\u00xx` (lowercase hex); everything else as is, UTF-8.
 */
type LeanJson = boolean | number | string | LeanJson[] | { [key: string]: LeanJson };
function leanCompress(j: LeanJson): string {
  if (typeof j === 'boolean' || typeof j === 'number') return String(j);
  if (typeof j === 'string') {
    let out = '"';
    for (const c of j) {
      const n = c.codePointAt(0)!;
      out += c === '"' ? '\\"' : c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : n < 0x20 ? `\\u${n.toString(16).padStart(4, '0')}` : c;
    }
    return out + '"';
  }
  if (Array.isArray(j)) return `[${j.map(leanCompress).join(',')}]`;
  const keys = Object.keys(j).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  return `{${keys.map((k) => `${leanCompress(k)}:${leanCompress(j[k]!)}`).join(',')}}`;
}

/**
 * The body of LeanHammer's `POST /retrieve`, as `selectPremisesCore`
 * (hanwenzhu/premise-selection `PremiseSelection/Cloud.lean`) builds it: every field on
 * every call; `imported_all_modules` the positions of the modules imported with
 * `import all`, and `[]` outside the module system. `Premise` derives its JSON: `{name, decl}`.
 */
function selectPremisesCoreBody(
  state: string,
  indexedPremises: number[],
  importedModules: [number, boolean][],
  unindexedPremises: { name: string; decl: string }[],
  k: number,
  inModuleSystem: boolean,
): string {
  const importAllModules = inModuleSystem ? importedModules.filter((m) => m[1]).map((m) => m[0]) : [];
  return leanCompress({
    state,
    local_premises: indexedPremises,
    imported_modules: importedModules.map((m) => m[0]),
    new_premises: unindexedPremises.map((p) => ({ name: p.name, decl: p.decl })),
    k,
    caller_in_module_system: inModuleSystem,
    imported_all_modules: importAllModules,
  });
}

/** LeanHammer's `makeRequest`: curl with its user agent, `Content-Type: application/json` and the body on stdin. */
const hammerPost = async (body: string) => {
  const r = await fetch(`${base}/retrieve`, {
    method: 'POST',
    headers: { 'user-agent': 'LeanProver (https://leanprover-community.github.io/)', 'content-type': 'application/json' },
    body,
  });
  return { status: r.status, body: (await r.json()) as { name: string; score: number }[] };
};

describe("LeanHammer's own client (Cloud.lean's request, byte for byte; issue 35)", () => {
  // a file `import Sample.Algebra …` that declares its own lemma, asking for premises at a goal
  // printed as the client prints it (pp.notation false, pp.fullNames true)
  const state = "M : Type u_1\ninst : Sample.CommMonoid' M\na b : M\n⊢ Eq (HMul.hMul a b) (HMul.hMul b a)";
  const own = [
    {
      name: 'My.mul_swap',
      decl: "/-- Multiplication \"swaps\" its factors. -/\ntheorem My.mul_swap {M : Type u_1} [inst : Sample.CommMonoid' M] (a b : M) : Eq (HMul.hMul a b) (HMul.hMul b a)",
    },
  ];
  const top = (hits: { name: string }[], n: number) => hits.slice(0, n).map((h) => h.name);

  it('writes the body as Lean does: fields in descending key order, every field present', () => {
    expect(selectPremisesCoreBody('⊢ True', [0, 2], [], [{ name: 'A.b', decl: 'theorem A.b : True' }], 32, false)).toBe(
      '{"state":"⊢ True","new_premises":[{"name":"A.b","decl":"theorem A.b : True"}],"local_premises":[0,2],"k":32,' +
        '"imported_modules":[],"imported_all_modules":[],"caller_in_module_system":false}',
    );
    expect(leanCompress('a"\\\n\r\t\u0001é')).toBe('"a\\"\\\\\\n\\r\\u0009\\u0001é"');
  });

  it('outside the module system, premises relayed one by one (every imported premise in local_premises): 200, the new premise and a commutativity lemma in the top 10', async () => {
    const names = (await get('/indexed-premises')).body as string[];
    const imported = names.map((_, i) => i);
    const r = await hammerPost(selectPremisesCoreBody(state, imported, [], own, 32, false));
    expect(r.status).toBe(200);
    expect(r.body.map((h) => h.name)).toContain('My.mul_swap');
    expect(top(r.body, 10).some((n) => /comm/.test(n) && n !== 'My.mul_swap'), JSON.stringify(top(r.body, 10))).toBe(true);
  });

  it('inside the module system, modules relayed by position with `import all` ones in imported_all_modules: 200 as well', async () => {
    const modules = (await get('/indexed-modules')).body as string[];
    const at = (m: string) => modules.indexOf(m);
    const imported: [number, boolean][] = [
      [at('Sample.Algebra'), true],
      [at('Sample.Order'), false],
    ];
    for (const inModuleSystem of [true, false]) {
      const body = selectPremisesCoreBody(state, [], imported, own, 32, inModuleSystem);
      expect(body).toContain(`"caller_in_module_system":${inModuleSystem}`);
      expect(body).toContain(`"imported_all_modules":[${inModuleSystem ? at('Sample.Algebra') : ''}]`);
      const r = await hammerPost(body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.map((h) => h.name)).toContain('My.mul_swap');
      expect(top(r.body, 10)).toContain('Sample.mul_comm');
    }
  });
});

describe('LeanHammer premise selection API', () => {
  it('lists indexed premises and modules, and the new-premise limit', async () => {
    const names = (await get('/indexed-premises')).body as string[];
    expect(names).toContain('Sample.mul_comm');
    expect((await get('/indexed-modules')).body).toContain('Sample.Algebra');
    expect(await get('/max-new-premises')).toEqual({ status: 200, body: 3 });
  });

  it('answers a pp.notation-false goal with [{name, score}]', async () => {
    const r = await retrieve({ state: 'a b : M\n⊢ Eq (HMul.hMul a b) (HMul.hMul b a)', k: 8 });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(8);
    expect(r.body).toContainEqual({ name: 'Sample.mul_comm', score: expect.any(Number) });
    // the same answer as for the goal in notation
    expect((await retrieve({ state: 'a b : M\n⊢ a * b = b * a', k: 8 })).body).toEqual(r.body);
  });

  it('honours imported_modules: premises of those modules and what they import, by the index\'s recorded imports', async () => {
    const state = 'a b : M\n⊢ a * b = b * a';
    // Sample.Order imports Sample.Algebra; Sample.Lists imports nothing of the sample
    const fromOrder = (await retrieve({ state, k: 50, imported_modules: ['Sample.Order'] })).body as { name: string }[];
    expect(fromOrder.map((h) => h.name)).toContain('Sample.mul_comm');
    const fromLists = (await retrieve({ state, k: 50, imported_modules: ['Sample.Lists'] })).body as { name: string }[];
    expect(fromLists.map((h) => h.name)).not.toContain('Sample.mul_comm');
    expect(fromLists.every((h) => !h.name.startsWith('Sample.') || h.name.startsWith('Sample.Lists.'))).toBe(true);
  });

  it('limits the answer to local_premises plus new premises, which it indexes on the fly', async () => {
    const names = (await get('/indexed-premises')).body as string[];
    const allowed = ['Sample.one_mul', 'Sample.mul_one'].map((n) => names.indexOf(n));
    const state = '⊢ Eq (HMul.hMul a b) (HMul.hMul b a)';
    const decl = '/-- Multiplication in my monoid commutes. -/\ntheorem My.mul_swap (a b : M) : Eq (HMul.hMul a b) (HMul.hMul b a)';
    const r = await retrieve({ state, local_premises: allowed, new_premises: [{ name: 'My.mul_swap', decl }], imported_modules: [], k: 10 });
    expect(r.status).toBe(200);
    const got = (r.body as { name: string }[]).map((h) => h.name);
    expect(got[0]).toBe('My.mul_swap');
    expect(got.every((n) => ['Sample.one_mul', 'Sample.mul_one', 'My.mul_swap'].includes(n))).toBe(true);
    // lean-lsp-mcp's form: no local_premises, everything indexed is eligible
    const all = (await retrieve({ state, new_premises: [], k: 10 })).body as { name: string }[];
    expect(all.map((h) => h.name)).toContain('Sample.mul_comm');
  });

  it("keeps a caller's new premises to its own request", async () => {
    const state = '⊢ Eq (HMul.hMul a b) (HMul.hMul b a)';
    const names = (body: unknown) => (body as { name: string }[]).map((h) => h.name);
    const plain = { state, k: 10 }; // caller B, lean-lsp-mcp style: no local_premises, no new premises
    const before = (await retrieve(plain)).body;
    const mine = (i: number) => ({ state, k: 10, new_premises: [{ name: `Mine.mul_swap${i}`, decl: `theorem Mine.mul_swap${i} (a b : M) : Eq (HMul.hMul a b) (HMul.hMul b a)` }] });
    expect(names((await retrieve(mine(0))).body)).toContain('Mine.mul_swap0');
    expect((await retrieve(plain)).body).toEqual(before);
    // callers A and B at once: B never sees A's premises, A sees only its own
    const runs = await Promise.all(Array.from({ length: 24 }, (_, i) => retrieve(i % 2 ? plain : mine(i)).then((r) => ({ i, r }))));
    for (const { i, r } of runs) {
      expect(r.status).toBe(200);
      if (i % 2) expect(r.body).toEqual(before);
      else expect(names(r.body).filter((n) => n.startsWith('Mine.'))).toEqual([`Mine.mul_swap${i}`]);
    }
  });

  it('says what is wrong with a bad request, and keeps serving', async () => {
    expect(await retrieve('{not json')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/not JSON/) } });
    expect(await retrieve({ k: 3 })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/state is required/) } });
    expect(await retrieve({ state: '⊢ x', k: 0 })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/k must be/) } });
    // a position past /indexed-premises is ignored, as LeanHammer's server ignores it (issue 35)
    expect(await retrieve({ state: '⊢ x', local_premises: [1e9] })).toEqual({ status: 200, body: [] });
    const four = Array.from({ length: 4 }, (_, i) => ({ name: `n${i}`, decl: `theorem n${i} : True` }));
    expect(await retrieve({ state: '⊢ x', new_premises: four })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/more than \/max-new-premises \(3\)/) } });
    expect(await get('/retrieve')).toMatchObject({ status: 405 });
    expect(await get('/nope')).toMatchObject({ status: 404 });
    expect((await get('/max-new-premises')).status).toBe(200);
  });

  it('answers a body over 4 MiB with 413, whether sized or streamed, and reads one under it (issue 31 item 17)', async () => {
    // a body is parsed in one piece while other callers wait (16 MiB: 0.9 s); LeanHammer's largest real one is about 2 MB
    const MiB = 2 ** 20;
    const body = (bytes: number) => JSON.stringify({ state: '⊢ a * b = b * a', k: 1, pad: ' '.repeat(bytes) });
    const post = (b: BodyInit) => fetch(`${base}/retrieve`, { method: 'POST', body: b, duplex: 'half' } as RequestInit);
    const sized = await post(body(5 * MiB));
    expect(sized.status).toBe(413);
    expect(((await sized.json()) as { error: string }).error).toMatch(/over 4194304 bytes \(4 MiB\)/);
    // no Content-Length (chunked): refused once past the limit, the rest read and discarded
    let left = 5 * MiB;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (left <= 0) return c.close();
        c.enqueue(new Uint8Array(64 * 1024).fill(32));
        left -= 64 * 1024;
      },
    });
    expect((await post(stream)).status).toBe(413);
    const under = await post(body(3.5 * MiB));
    expect(under.status).toBe(200);
    expect(await under.json()).toHaveLength(1);
  });

  it('works on 4 requests at once with 64 waiting, and refuses the next with 503 and Retry-After', async () => {
    const { hostname, port } = new URL(base);
    const body = JSON.stringify({ state: '⊢ a * b = b * a', k: 1 });
    // Expect: 100-continue: the server answers "100 Continue" when it has taken the request in
    // (and decided whether it runs, waits or is refused), before the body is sent
    const clients = Array.from({ length: 4 + 64 + 1 }, () => {
      const sock = connect(Number(port), hostname);
      let text = '';
      sock.setEncoding('utf8');
      sock.on('error', () => undefined);
      const continued = new Promise<void>((res) => sock.on('data', (d: string) => (text += d).includes('100 Continue') && res()));
      const closed = new Promise<string>((res) => sock.on('close', () => res(text)));
      sock.write(
        `POST /retrieve HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          'Expect: 100-continue\r\nConnection: close\r\n\r\n',
      );
      return { sock, continued, closed };
    });
    await Promise.all(clients.map((c) => c.continued));
    for (const c of clients) c.sock.write(body);
    const replies = await Promise.all(clients.map((c) => c.closed));
    const status = (r: string) => /HTTP\/1\.1 (\d{3}) (?!Continue)/.exec(r)?.[1];
    const refused = replies.filter((r) => status(r) === '503');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(refused[0]).toMatch(/"error":"busy: 68 requests taken in \(at most 4 worked on at once, 64 more waiting\)/);
    expect(replies.filter((r) => status(r) === '200')).toHaveLength(4 + 64);
    expect((await get('/max-new-premises')).status).toBe(200);
  });

  it('refuses a slot (or tactic) that is no tactic with a premise slot, naming the allowed ones, as the CLI does', async () => {
    const r = await retrieve({ state: '⊢ a * b = b * a', slot: 'banana' });
    expect(r.status).toBe(400);
    const error = (r.body as { error: string }).error;
    expect(error).toMatch(/^slot "banana" is not a tactic with a premise slot; one of: rw \(rw, rwa, .*\); simp \(simp, /);
    expect(error).toMatch(/apply \(apply, refine/);
    expect(await retrieve({ state: '⊢ x', tactic: 'nonsense' })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^tactic "nonsense" is not/) } });
    // what the CLI's --slot takes is taken here
    expect((await retrieve({ state: '⊢ a * b = b * a', slot: 'nth_rw 2', k: 2 })).status).toBe(200);
    expect((await retrieve({ state: '⊢ a * b = b * a', tactic: 'exact?', k: 2 })).status).toBe(200);
  });

  it('restricts /retrieve to modules, namespaces and kinds (in, ns, kinds), and reads patterns (issue 25)', async () => {
    const names = (r: { body: unknown }) => (r.body as { name: string }[]).map((h) => h.name);
    const lists = await retrieve({ state: '⊢ (l₁ ++ l₂).length = l₁.length + l₂.length', in: ['Sample.Lists'], kinds: ['theorem'], k: 10 });
    expect(lists.status).toBe(200);
    expect(names(lists).length).toBeGreaterThan(0);
    expect(names(lists).every((n) => n.startsWith('Sample.Lists.'))).toBe(true);
    const nat = await retrieve({ state: '⊢ a + b = b + a', ns: ['Nat'], k: 10 });
    expect(names(nat).length).toBeGreaterThan(0);
    expect(names(nat).every((n) => n.startsWith('Nat.'))).toBe(true);
    // a pattern, recognised or asked for
    expect(names(await retrieve({ state: '?a * ?b = ?b * ?a', k: 3 }))).toContain('Sample.mul_comm');
    expect(names(await retrieve({ state: '"two_mul"', pattern: true, k: 1 }))).toEqual(["Nat.two_mul'"]);
    // bad fields and patterns: 400 with the reason
    expect(await retrieve({ state: '⊢ x', in: 'Sample' })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^in must be a list/) } });
    expect(await retrieve({ state: '⊢ x', kinds: [''] })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^kinds must be/) } });
    expect(await retrieve({ state: '(_ * _', pattern: true })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/unbalanced/) } });
  });

  it('refuses local_premises longer than its bound (4 times the index, at least 65,536) with 400 before reading its entries', async () => {
    const size = ((await get('/indexed-premises')).body as string[]).length;
    const r = await retrieve({ state: '⊢ a * b = b * a', local_premises: new Array(65_537).fill(0) });
    expect(r).toEqual({ status: 400, body: { error: `local_premises has 65537 entries, more than the 65536 allowed (4 times the index's ${size} premises, /indexed-premises)` } });
    // the whole index is fine
    const all = await retrieve({ state: '⊢ a * b = b * a', local_premises: Array.from({ length: size }, (_, i) => i), k: 3 });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(3);
  });
});

describe('stopping the HTTP API', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s ends the server while a client holds a silent connection and another a half-sent request', async (signal) => {
    const proc = spawn(process.execPath, [CLI, 'http', '--index', index, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
    const url = await new Promise<string>((res, rej) => {
      proc.stderr!.on('data', (d: Buffer) => {
        const m = /listening on (http:\/\/\S+)/.exec((stderr += d.toString()));
        if (m) res(m[1]!);
      });
      void exited.then((code) => rej(new Error(`server exited ${code}: ${stderr}`)));
    });
    const { hostname, port } = new URL(url);
    const silent = connect(Number(port), hostname);
    silent.on('error', () => undefined);
    const half = connect(Number(port), hostname);
    half.on('error', () => undefined);
    half.setEncoding('utf8');
    // the server has taken the request in when it says 100 Continue; then half the body, and nothing more
    const taken = new Promise<void>((res) => half.on('data', (d: string) => d.includes('100 Continue') && res()));
    half.write(`POST /retrieve HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`);
    await taken;
    half.write('{"state":');
    await new Promise<void>((res) => silent.connecting ? silent.once('connect', () => res()) : res());
    proc.kill(signal);
    // before: still running 200 s later (the hang guard is below the server's 10 s idle timeout)
    expect(await exited).toBe(0);
    silent.destroy();
    half.destroy();
  }, 8_000);
});
