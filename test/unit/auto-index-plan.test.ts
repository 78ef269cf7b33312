/**
 * The automatic index's plan runs on the language server's thread beside the editor's
 * requests (issue 36 item 5): it walks the project only in slices (discoverSourcesAsync,
 * indexes/src/extract/steps.ts), never in one piece, and once for all its keys. Here the
 * walk in one piece fails, and the slices are counted.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lakeFixture } from './lake-project.js';

const walks = vi.hoisted(() => ({ async: 0 }));
vi.mock('../../indexes/src/extract/walk.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../indexes/src/extract/walk.js')>();
  return {
    ...real,
    discoverSources: () => {
      throw new Error('the plan walked in one piece');
    },
    discoverSourcesAsync: (...args: Parameters<typeof real.discoverSourcesAsync>) => {
      walks.async++;
      return real.discoverSourcesAsync(...args);
    },
  };
});

const { autoIndexPlan } = await import('../../server/src/indexing/auto-index.js');
const { Logger } = await import('../../server/src/lsp/log.js');

afterEach(() => {
  walks.async = 0;
});

describe('the automatic index plan (issue 36 item 5)', () => {
  it('walks a Lake project in slices, once for both the sparse and the full keys', async () => {
    const f = lakeFixture();
    f.manifest({ deplib: 'r1' });
    const plan = await autoIndexPlan({ root: f.root, cache: '/cache', encoderDir: null, env: { ELAN_HOME: '/nonexistent', PATH: '' }, log: new Logger(() => {}, 'error') });
    expect(plan.full.map((e) => e.kind)).toEqual(['dependencies', 'workspace']);
    expect(walks.async).toBe(1);
  });

  it('walks an Isabelle workspace in slices, once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'plan-isabelle-'));
    mkdirSync(join(root, 'Thys'));
    writeFileSync(join(root, 'Thys', 'A.thy'), 'theory A imports Main begin\nlemma a: "True" by simp\nend\n');
    const plan = await autoIndexPlan({ root, prover: 'isabelle', isabelleHome: { home: '/nonexistent' }, cache: '/cache', encoderDir: null, log: new Logger(() => {}, 'error') });
    expect(plan.full.map((e) => e.kind)).toEqual(['workspace']);
    expect(walks.async).toBe(1);
  });
});
