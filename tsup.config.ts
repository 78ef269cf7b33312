import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { cli: 'server/src/cli.ts', bench: 'server/src/bench/main.ts', 'extract-worker': 'indexes/src/extract/worker.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  splitting: false,
  // native addons stay external; everything else is bundled
  external: ['onnxruntime-node', 'usearch'],
  banner: { js: '#!/usr/bin/env node\nimport { createRequire as __cr } from "module"; const require = __cr(import.meta.url);' },
});
