// Step 3: tokenise every training/eval text with @huggingface/tokenizers (the same JS
// library the runtime uses), so training and inference tokenisation are identical.
// usage: node tokenize.mjs <tokenizer.json> <texts.jsonl> <out_prefix> [max_length=256]
// writes <out_prefix>.ids.bin (int32, concatenated), <out_prefix>.off.bin (int64 offsets, n+1),
// and prints the [UNK] rate.
import fs from 'node:fs';
import readline from 'node:readline';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let tokPath = process.argv[2];
const [textsPath, outPrefix] = process.argv.slice(3, 5);
const maxLen = Number(process.argv[5] ?? 256);
// resolve the library from the project (this script may live anywhere)
const libPath = require.resolve('@huggingface/tokenizers', { paths: [process.cwd(), new URL('../..', import.meta.url).pathname] });
const { Tokenizer } = await import(libPath.replace(/tokenizers\.cjs$/, 'tokenizers.mjs'));
const tokJson = JSON.parse(fs.readFileSync(tokPath, 'utf8'));
const cfgPath = tokPath.replace(/tokenizer\.json$/, 'tokenizer_config.json');
const tokCfg = fs.existsSync(cfgPath) ? JSON.parse(fs.readFileSync(cfgPath, 'utf8')) : {};
const tok = new Tokenizer(tokJson, tokCfg);
const unkId = tokJson.model.vocab['[UNK]'];

const ids = [];
const offs = [0];
let unk = 0, total = 0, n = 0, truncated = 0;
const t0 = Date.now();
const rl = readline.createInterface({ input: fs.createReadStream(textsPath, 'utf8'), crlfDelay: Infinity });
let chunk = new Int32Array(1 << 22);
let pos = 0;
const chunks = [];
for await (const line of rl) {
  if (!line) continue;
  const text = JSON.parse(line);
  let e = tok.encode(text).ids;
  if (e.length > maxLen) { e = e.slice(0, maxLen); truncated++; }
  if (pos + e.length > chunk.length) { chunks.push(chunk.subarray(0, pos)); chunk = new Int32Array(1 << 22); pos = 0; }
  for (const id of e) { chunk[pos++] = id; if (id === unkId) unk++; }
  total += e.length;
  offs.push(total);
  n++;
}
chunks.push(chunk.subarray(0, pos));
const fd = fs.openSync(outPrefix + '.ids.bin', 'w');
for (const c of chunks) fs.writeSync(fd, Buffer.from(c.buffer, c.byteOffset, c.byteLength));
fs.closeSync(fd);
fs.writeFileSync(outPrefix + '.off.bin', Buffer.from(new BigInt64Array(offs.map(BigInt)).buffer));
console.log(`[tokenize] texts=${n} tokens=${total} avg=${(total / n).toFixed(1)} unk=${unk} (${(100 * unk / total).toFixed(4)}%) truncated=${truncated} in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
