#!/usr/bin/env node
/**
 * Hybrid /retrieve latency of several builds on one index, measured in the same run (a check to run
 * by hand, not a test):
 *   node test/soak/retrieve-latency.mjs <index-dir> <steps.jsonl> <n> <cli.js[|arg|arg…]>…
 * Each build (a dist/cli.js, optionally with `http` arguments after `|`) serves the index in turn,
 * three rounds, alternating; each answers the first n LeanDojo states (`state_before`) one at a
 * time, after 20 warm-up requests. Prints p50 and p95 (ms) per build and round, then one JSON line.
 */
import { readFileSync } from 'node:fs';
import { startHttp } from './start-http.mjs';

const [index, steps, n, ...builds] = process.argv.slice(2);
if (!index || !steps || !n || !builds.length) {
  console.error('usage: node test/soak/retrieve-latency.mjs <index-dir> <steps.jsonl> <n> <cli.js[|arg|arg…]>…');
  process.exit(2);
}
const states = readFileSync(steps, 'utf8').split('\n').filter(Boolean).slice(0, Number(n)).map((l) => JSON.parse(l).state_before);
const retrieve = async (base, state, k) => (await fetch(`${base}/retrieve`, { method: 'POST', body: JSON.stringify({ state, k }) })).text();
const out = {};
for (const round of [0, 1, 2]) {
  for (const spec of builds) {
    const [cli, ...args] = spec.split('|');
    const { server, base } = await startHttp(cli, index, args);
    // warm-up (another k: never a cached answer for the measured requests)
    for (const s of states.slice(0, 20)) await retrieve(base, s, 31);
    const t = [];
    for (const s of states) {
      const t0 = performance.now();
      await retrieve(base, s, 32);
      t.push(performance.now() - t0);
    }
    server.kill('SIGTERM');
    t.sort((a, b) => a - b);
    (out[spec] ??= []).push({ p50: +t[t.length >> 1].toFixed(1), p95: +t[Math.floor(t.length * 0.95)].toFixed(1) });
    console.error(spec, round, out[spec].at(-1));
  }
}
console.log(JSON.stringify(out));
