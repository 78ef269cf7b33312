/** The usage texts: one line per command for `premise-lsp --help`, and each command's flags, defaults and an example for `<command> --help`. */

export const USAGE = `usage: premise-lsp <command> [options]      (premise-lsp <command> --help: its flags)

commands:
  index <source>... --out <index-dir> [--encoder DIR | --no-dense [--defer-informal]] [--no-packages] [--follow-links] [--resolve-against DIR]... [--progress-fd N] [--llm URL ...] [--verbose]
  index --dense-from <sparse-index> --out <index-dir> [--encoder DIR]
  query --index <index-dir> | --project <dir> [--k N] [--mode bm25|dense|hybrid|sine|mepo] [--slot TACTIC] [--in M] [--ns N] [--kind K] [--deprecated] [--pattern] [--imported-modules A,B | --imports-from FILE] [--rerank | --no-rerank] [--weights d,s,p[,…]] [--llm URL ...] [--json] <text | ->
  eval  --index <index-dir> --dataset mathlibqr|mathlibmpr|leandojo|heldout <file> | --dataset afp | --project <dir> [--limit N] [--half dev|test] [--mode M|bm25-plain|all] [--rerank | --no-rerank] [--weights d,s,p[,…]] [--slot-steps | --slot-from-tactic] [--no-informal] [--no-context] [--json]
  extract <source>... [--out records.jsonl] [--follow-links]
  rerank-data --index <index-dir> --records <records.jsonl> --out <features.jsonl> [--limit N] [--holdout FILE]
  tower-data --index <index-dir> --out <dir> [--holdout FILE] [--min-df N]
  fusion-data --index <index-dir> --records <records.jsonl> --out <pools.jsonl> [--limit N] [--dev-limit N] [--holdout FILE] [--no-context PCT] [--ranker]
  fusion-data --project <dir> --half dev|test --ranker --out <pools.jsonl> [--limit N]
  holdout-files --records <records.jsonl> | --index <index-dir> [--shared DIR] [--out FILE]
  serve --stdio [--index DIR] [--lean <root> | --isabelle [opts...] | -- <command...>]
  http --index <index-dir> | --project <dir> [--host H] [--port N] [--max-new-premises N] [--max-body-mib N] [--mode M] [--rerank | --no-rerank] [--llm URL ...]
  mcp --index <index-dir> | --project <dir> [--lean | -- <cmd...>] [--mode M] [--rerank | --no-rerank]
  setup vscode [--shim-dir DIR]
  vocab <records.jsonl> [--out models/vocab/en-lean.json]
  models pull <owner/repo> [--revision R] [--dest DIR] [--files a,b] [--endpoint URL]
  doctor [<dir>] [--index DIR]
  cache list [--json] | cache clean [--all] [--dry-run]
  bench [--mathlib DIR] [--batteries DIR] [--shared DIR] [--index DIR] [--rebuild] [--out DIR] [--project DIR]... [--project-limit N] [--only auto-index|project|goal-match|patterns|trials] [--patterns FILE]

premise-lsp --version (or -V) prints the installed version.
Exit status: 0 ok, 2 bad usage, 1 any other error (the reason on stderr).
`;

const ENGINE = `  --mode M             bm25, dense, hybrid, sine or mepo (default: hybrid when the index has vectors, else bm25)
  --rerank, --no-rerank
                       reorder the top 50 with the reranker (default: the reranker's own default; off for the shipped one)
  --reranker DIR       a reranker or cross-encoder directory (default: the shipped models/reranker)
  --encoder DIR        the query encoder (default: the one the index was built with)
  --text-tower DIR     English sentences → premise vectors (default: the shipped models/text-tower
                       when it was trained for the index's encoder)
  --no-text-tower      English goes through the encoder like any other query
  --fusion DIR         a learned fusion for Lean states and statements (models/train/fusion;
                       default: none, the hand-set weights)
  --ranker DIR         a learned ranker of the fused top 300, Lean states and statements in
                       hybrid mode (ranker.json, models/train/ranker; default: none)
  --weights d,s,p[,g[,l[,i[,k[,n[,f[,o[,u[,m]]]]]]]]]
                       fusion weights dense,sparse,prior[,graph[,local[,informal[,kind[,name[,fit[,own[,usage[,mash]]]]]]]]]
                       for every kind of query (defaults: 0.3,0.9,0.2,0.8,0.3,0,0,0,0.3,0 Lean;
                       0,0.9,0.2,0.8,1,0,0,0,0 Isabelle goals; 0.5,0.9,0.4,0,0,0.45,0,0,0 text with
                       formulas; 0.1,0.5,0.4,0,0,0.9,0.1,0.4,0 prose); fit: with no slot given,
                       how much what acts on the goal moves up (hybrid, not reranked); own: in a
                       Lake project's automatic index, votes of the project's own nearest proofs;
                       usage: the usage model (statements sharing a query term vote for their
                       proofs' premises; default 0, off); mash: the usage model fitted at index
                       time (MaSh's naive Bayes, mash.bin; default 0, off)
  --no-goal-match      no goal match: a premise whose conclusion is the goal no longer
                       comes first, nor one that is the goal once its hypotheses are set aside`;

const LLM = `  --llm URL            an OpenAI-compatible chat endpoint for LLM help (off by default;
                       the key, if any, from PREMISE_LSP_LLM_KEY)
  --llm-model M        the model name to ask for
  --llm-timeout MS     per call, retries included`;

export const COMMAND_USAGE: Record<string, string> = {
  index: `usage: premise-lsp index <source>... --out <index-dir> [options]

Extracts the declarations of .lean/.thy trees (a Lake package: its default libraries and
.lake/packages/*) and writes an index directory.

  -o, --out DIR        the index directory to write (required)
  --encoder DIR        the encoder for premise vectors (default: the shipped models/default)
  --no-dense           BM25 only: no vectors
  --defer-informal     with --no-dense: leave the informal (English) field empty, for
                       --dense-from to build (an index to serve first, see docs/cli.md)
  --no-packages        a Lake project's own sources only, not its .lake/packages/*
  --follow-links       follow links whose target leaves the source (or package) they are
                       in (by default they are skipped, and counted in the summary)
  --resolve-against DIR
                       proofs may reference that index's premises (repeatable)
  --dense-from DIR     instead of sources: that sparse-only index with vectors added
                       (and its informal field, when it was deferred)
  --progress-fd N      JSON-lines progress events on file descriptor N (for programs)
${LLM}
  --llm-rate N         requests per second at most (default: 10)
  --llm-max N          informal statements for at most N of the sources' own declarations
  -v, --verbose        list every warning

example:
  premise-lsp index ~/my-project --out ~/.cache/premise-lsp/my-project
`,
  query: `usage: premise-lsp query --index <index-dir> | --project <dir> [options] <text | ->

Top-k premises for a Lean proof state, an Isabelle goal, a Lean statement, LaTeX or English.
- reads the query from stdin.

  -i, --index DIR      the index directory (this or --project)
  --project DIR        the automatic index the server would use for DIR (a Lake project or an
                       Isabelle workspace): its cache entries, the missing ones built first
                       (progress on stderr; cache: $PREMISE_LSP_CACHE, default ~/.cache/premise-lsp/indexes)
  -k, --k N            how many premises (default: 10)
  --slot TACTIC        rank for the tactic whose argument is wanted (rw, simp, exact, apply, rule, using…)
  --in MODULE          only premises of this module or below it (repeatable; in the query: in:MODULE)
  --ns NAMESPACE       only premises in this namespace (repeatable; in the query: ns:NAMESPACE)
  --kind KIND          only this kind of declaration: theorem (with lemma), def, instance… (repeatable; kind:KIND)
  --deprecated         also deprecated declarations (left out by default; in the query: deprecated:yes)
  --pattern            read the query as a Loogle-style pattern (recognised without it when written as one):
                       Real.sqrt, "sqrt_mul", _ * (_ ^ _), ?a * ?b = ?b * ?a, ⊢ tsum _ = _, combined with commas
  --imported-modules A,B
                       what the query's file imports: premises of other modules (outside these
                       and what they import, by the index's recorded imports) are left out
  --imports-from FILE  the same, read from a .lean or .thy file's header (its own module counts)
  --imports P          only (default with either: leave the others out), prefer (rank them
                       after, each marked "needs import M") or any (rank alike, marked)
${ENGINE}
${LLM} (default: 30000)
  --json               JSON instead of text

example:
  premise-lsp query --project ~/my-project --k 5 $'a b : ℕ\\n⊢ a + b = b + a'
  premise-lsp query --project ~/my-project 'triangle inequality'
  premise-lsp query --project ~/my-project --pattern 'Real.sqrt ?a * Real.sqrt ?a'
  premise-lsp query --project ~/my-project --in Mathlib.Order --kind theorem 'antisymmetry'
  premise-lsp index ~/my-project --out /tmp/my-index      # an index of your own, then:
  premise-lsp query --index /tmp/my-index --imports-from ~/my-project/MyProject/Foo.lean 'a ≤ b → b ≤ a → a = b'
`,
  eval: `usage: premise-lsp eval --index <index-dir> --dataset <name> [<file>] [options]
       premise-lsp eval --project <Lake project dir> [--limit N] [--half dev|test] [options]

Recall@1/5/10/16/32/100, nDCG@10 and MRR of the index on an evaluation file, or of a Lake
project's automatic index on the project's own theorems.

  -i, --index DIR      the index directory
  --project DIR        a Lake project: its automatic index as the language server builds it (the
                       same cache, see query --help), each theorem of its own with a proof that
                       uses indexed premises searched at its place → those premises; also scored
                       by part: dependency (the toolchain's and dependencies' premises) and
                       workspace (the project's own)
  --limit N            --project: the first N theorems by a stable hash of the name (a fixed sample)
  --half dev|test      --project: only that half of the theorems (by a stable hash of the name)
  -d, --dataset NAME   mathlibqr, mathlibmpr, leandojo, heldout or afp (with --index); heldout: the
                       index's own held-out statements (theorems of the files whose stable
                       hash is 0 mod 20, 2,000 of them, → the premises their proofs use),
                       the file being the holdout list of names never to query; afp
                       (no file): an Isabelle index's own held-out lemmas (500 lemmas of
                       the theories whose SHA-1 is 0 mod 20 → the facts their proofs
                       name), scored by half (dev, test)
${ENGINE.replace('bm25, dense, hybrid, sine or mepo', 'bm25, dense, hybrid, sine, mepo or bm25-plain (BM25 over the whole query)')}
  --slot-steps         LeanDojo: only the steps whose tactic has a slot (rw, simp, exact, apply…)
  --slot-from-tactic   the same steps, with their tactic given to the engine
  --no-informal        text queries search the formal side only (MathlibQR in hybrid mode
                       reports both in one run by default)
  --no-context         each query as a new statement typed in a scratch file: nothing nearby,
                       its file's later declarations neither results nor evidence (default: as
                       if proved at its theorem's place: earlier declarations nearby, later
                       ones hidden but their proofs vote)
  --mode all           every mode in one run (bm25-plain, bm25, sine, mepo, dense, hybrid, reranked)
  --json               one JSON object (a list with --mode all) instead of a table

example:
  premise-lsp eval --project ~/my-project --mode all --limit 200
  premise-lsp eval --index /tmp/idx --dataset leandojo ../shared/data/leandojo.jsonl
  premise-lsp eval --index /tmp/idx --dataset heldout ../shared/data/holdout_theorems.txt
  premise-lsp eval --index /tmp/afp-idx --dataset afp
`,
  extract: `usage: premise-lsp extract <source>... [--out records.jsonl] [--follow-links]

The extracted premise records as JSON lines (training data, debugging).

  -o, --out FILE       write the records there (default: stdout)
  --follow-links       follow links whose target leaves the source they are in

example:
  premise-lsp extract ~/mathlib4 --out /tmp/records.jsonl
`,
  'rerank-data': `usage: premise-lsp rerank-data --index <index-dir> --records <records.jsonl> --out <features.jsonl> [options]

Training data for the reranker (models/train/reranker/): the first stage's top 50 for each
theorem of the records, with feature rows and 0/1 labels.

  -i, --index DIR      the index directory (required)
  --records FILE       records from \`premise-lsp extract\` (required)
  -o, --out FILE       the feature lines to write (required)
  --limit N            training queries at most (default: all)
  --val-limit N        validation queries at most (default: limit / 20)
  --mode M             the first stage: bm25, dense or hybrid (default: hybrid when the index has vectors)
  --holdout FILE       theorems never used (default: ../shared/data/holdout_theorems.txt)
  --shared DIR         evaluation data whose files are held out (default: ../shared/data; see holdout-files)
  --val-dojo FILE      also write the validation queries in LeanDojo form
  --no-context PCT     percent of training queries searched without their file's earlier
                       declarations as nearby (default: 50; validation queries always have them)
  --encoder DIR        the query encoder (default: the one the index was built with)

example:
  premise-lsp rerank-data --index /tmp/idx --records /tmp/records.jsonl --out /tmp/features.jsonl
`,
  'tower-data': `usage: premise-lsp tower-data --index <index-dir> --out <dir> [options]

Training data for the English text tower (models/train/text_tower.py): the index's premise
vectors, its informal terms, and English views of each premise (docstring, name in words,
statement in words, surrounding prose) as term ids.

  -i, --index DIR      an index built with an encoder (required)
  -o, --out DIR        where to write vectors.i8, scales.f32, terms.json, pairs.jsonl (required)
  --holdout FILE       theorems never used (default: ../shared/data/holdout_theorems.txt)
  --shared DIR         evaluation data whose files are held out (default: ../shared/data; see holdout-files)
  --min-df N           keep terms in at least N premises (default: 3)

example:
  premise-lsp tower-data --index /tmp/idx --out /tmp/tower-data
`,
  'holdout-files': `usage: premise-lsp holdout-files (--records <records.jsonl> | --index <index-dir>) [options]

The files the one hold-out rule keeps out of all training (server/src/eval/holdout.ts):
SHA-1(path) mod 20 = 0 (the held-out statements eval and the bench query), and the files of
the LeanDojo, MathlibQR and MathlibMPR queries. One path a line, sorted; the training
recipes (models/train/) read it as HOLDOUT_FILES.

  --records FILE       the corpus as extracted records (premise-lsp extract)
  -i, --index DIR      or the corpus as an index
  --shared DIR         the evaluation data (default: ../shared/data; absent: the hash rule only)
  -o, --out FILE       where to write the list (default: stdout)

example:
  premise-lsp holdout-files --records /tmp/records.jsonl --out /tmp/holdout-files.txt
`,
  'fusion-data': `usage: premise-lsp fusion-data --index <index-dir> --records <records.jsonl> --out <pools.jsonl> [options]
       premise-lsp fusion-data --project <dir> --half dev|test --ranker --out <pools.jsonl> [--limit N]

Training data for a learned first-stage fusion (models/train/fusion/train.sh): the statement
queries of rerank-data, each searched in hybrid mode as eval does, with its whole candidate
pool: per candidate the fusion's inputs, its uses and whether the proof uses it. Held-out
files (stable hash 0 mod 20) are never used; dev files (1 mod 20) are searched with and
without their file context.

  -i, --index DIR      an index built with an encoder (required)
  --records FILE       the extractor's records of the index's sources (required)
  -o, --out FILE       the JSON lines to write (required)
  --limit N            training queries (default: 6000)
  --dev-limit N        dev queries (default: 1000)
  --holdout FILE       theorems never used (default: ../shared/data/holdout_theorems.txt)
  --shared DIR         evaluation data whose files are held out (default: ../shared/data; see holdout-files)
  --no-context PCT     percent of training queries searched without their file's earlier
                       declarations nearby (default: 50)
  --ranker             the learned ranker's data instead (models/train/ranker/train.sh): per
                       search the rows of the hand-set fusion's top 300, each with its label
  --project DIR        with --ranker and --half: a Lake project's own theorems of that half,
                       searched in its automatic index as eval --project does

example:
  premise-lsp fusion-data --index /tmp/idx --records /tmp/records.jsonl --out /tmp/pools.jsonl
`,
  serve: `usage: premise-lsp serve --stdio [--index DIR] [--lean <root> | --isabelle [opts...] | -- <command...>]

The language server: a proxy in front of the prover's server that adds premises.

  --stdio              talk LSP over stdin/stdout (required)
  --index DIR          the index to serve (default: the editor's \`index\` setting, else the Lean
                       project's automatic index)
  --lean ROOT          upstream \`lake serve\` (or \`lean --server\`) in ROOT
  --isabelle [opts...] upstream \`isabelle vscode_server\` with these options
  -- <command...>      any other upstream server
  (none)               standalone: premises only
  --project-commands   advertise the commands as premise-lsp.search.<id> (id: the project's),
                       for editors that refuse a name two servers advertise (VS Code)

example:
  premise-lsp serve --stdio --lean ~/my-project
`,
  http: `usage: premise-lsp http --index <index-dir> | --project <dir> [options]

One HTTP server for the Lean search clients (docs/ecosystem.md): LeanHammer's premise
selection API (/retrieve…), Loogle's JSON API (/json), LeanSearch (/search) and
LeanStateSearch (/api/search), and a search page for a browser at /.

  -i, --index DIR      the index directory
  --project DIR        a Lake project (or Isabelle workspace): its automatic index, the
                       language server's cache (reused, or built there first); edits to
                       its own files are picked up
  --watch-ms N         with --project: how often its files are checked for edits (default: 2000)
  --host H             address to listen on (default: 127.0.0.1)
  -p, --port N         port (default: 8765; 0: any free port, printed on stderr)
  --max-new-premises N new premises a request may send (default: 2048)
  --max-body-mib N     largest request body in MiB, 413 beyond (default: 4; at most 64)
${ENGINE}
${LLM} (default: 10000)

example:
  premise-lsp http --index /tmp/idx --port 8765
  premise-lsp http --project ~/my-project
`,
  mcp: `usage: premise-lsp mcp --index <index-dir> | --project <dir> [--lean | -- <cmd…>] [options]

An MCP server for agents (Claude Code, Cursor, Codex…) on stdin/stdout; logs on stderr.
Tools, each {query, k?}: premises (a goal or proof state), search (English or any text),
pattern (Loogle syntax), declaration (a name → statement, module, doc, location); and try
({file, line, column? | after?, premises?, tactics?}: which premises Lean accepts at a tactic
step of a file on disk; needs --lean). Set up an agent: docs/mcp.md.

  -i, --index DIR      the index directory (this or --project)
  --project DIR        the automatic index the language server uses for DIR (a Lake project or
                       an Isabelle workspace): cached entries reused, missing ones built first while
                       the server already answers (tool calls wait; cache: $PREMISE_LSP_CACHE,
                       default ~/.cache/premise-lsp/indexes)
  --lean               with --project: the try tool's Lean server, \`lake serve\` in DIR (\`lean --server\`
                       without a lakefile), started at the first try call; one Lean file worker
                       for the file tried and one for its trial document (docs/trials.md)
  -- <cmd…>            instead of --lean: another command for the Lean server, run in DIR
  --try-timeout-ms N   wall-clock limit of one try call (default: 120000)
${ENGINE}

example:
  premise-lsp mcp --project ~/my-project
  premise-lsp mcp --project ~/my-project --lean
`,
  setup: `usage: premise-lsp setup vscode [--shim-dir DIR]

Puts premise-lsp in front of Lean in VS Code (vscode-lean4), with no extension: writes
\`lake\` and \`lean\` shims into DIR and prints the settings.json line that puts DIR first
on the Lean extension's PATH ("lean4.envPathExtensions"). The shims run \`lake serve\` (a
Lake project) and \`lean --server\` (a folder without a lakefile) behind premise-lsp serve,
and pass every other command to the real lake or lean. See docs/editors.md.

  --shim-dir DIR       where the shims go (default: $XDG_DATA_HOME/premise-lsp/vscode-shim,
                       else ~/.local/share/premise-lsp/vscode-shim)

example:
  premise-lsp setup vscode
`,
  vocab: `usage: premise-lsp vocab <records.jsonl> [--out FILE]

Learns the English → Lean vocabulary (docstring words against the name parts of the
declarations they document) that text queries use; see models/vocab/MODEL_CARD.md.

  -o, --out FILE       where to write the table (default: stdout)

example:
  premise-lsp vocab /tmp/records.jsonl --out models/vocab/en-lean.json
`,
  models: `usage: premise-lsp models pull <owner/repo> [options]

Downloads a Hugging Face ONNX model directory (resumable, size and SHA-256 checked);
prints the directory. HF_ENDPOINT and HF_TOKEN are honoured.

  --revision R         branch, tag or commit (default: main)
  --dest DIR           where to write (default: ~/.cache/premise-lsp/models/<owner>--<repo>)
  --files a,b          repository paths (default: config.json, tokenizer.json,
                       tokenizer_config.json, special_tokens_map.json, onnx/model.onnx)
  --endpoint URL       the server (default: $HF_ENDPOINT, else https://huggingface.co)

example:
  premise-lsp models pull sentence-transformers/all-MiniLM-L6-v2
`,
  doctor: `usage: premise-lsp doctor [<dir>] [--index DIR]

Checks what an editor setup needs, one line each (✓, or ✗ with the fix); exits 1 when a
check fails: premise-lsp on PATH and its version, the shipped models load, the server
starts (serve --stdio: initialize, shutdown), the index, and the prover on PATH.

  <dir>                the project whose automatic index cache is checked, and whose prover
                       (lake, in the project; isabelle for an Isabelle workspace)
                       (default: the current directory)
  -i, --index DIR      check this index instead of the automatic index (as the editor's
                       \`index\` setting would use it)

example:
  premise-lsp doctor ~/my-project
`,
  cache: `usage: premise-lsp cache list [--json] | premise-lsp cache clean [--all] [--dry-run]

The automatic index cache ($PREMISE_LSP_CACHE, else $XDG_CACHE_HOME/premise-lsp/indexes, by
default ~/.cache/premise-lsp/indexes). list: every entry with its state, kind, size, last use
and the projects that used it. An entry is fresh when a project that used it would use it
now, stale when none would (the project changed, moved or is gone), unknown when no use is
recorded in it. clean: removes stale entries and leftovers of interrupted builds.

  --json               list as JSON
  --all                clean: remove every entry (default: stale ones and leftovers only);
                       builds still running are never removed
  --dry-run            clean: say what would be removed, remove nothing

example:
  premise-lsp cache list
  premise-lsp cache clean --dry-run
`,
  bench: `usage: premise-lsp bench [options]

Builds a Mathlib index (or reuses it) and measures build time, load time, memory, latency,
throughput and retrieval quality; writes report.json and report.md.

  --mathlib DIR        Mathlib 4f54a550 (default: $PREMISE_BENCH_MATHLIB, else ../corpus/mathlib4)
  --batteries DIR      Batteries (default: $PREMISE_BENCH_BATTERIES, else ../corpus/batteries, when present)
  --shared DIR         the evaluation data's parent (default: ../shared)
  --index DIR          the index to build and measure (default: bench/work/mathlib-index)
  --rebuild            rebuild the index even when it exists
  --out DIR            where the reports go (default: bench/)
  --only auto-index    only the automatic index stage (needs no evaluation data)
  --project DIR        also a downstream Lake project (repeatable): every mode on its own theorems
                       in its automatic index (see eval --help), by half, gold by part
  --project-limit N    at most N theorems of each half of each project (default: all)
  --only project       only the projects (report-projects.json and report-projects.md)
  --only goal-match    only the goal-match measurement on the LeanDojo exact/apply steps
                       (the index given by --index, or the bench's, already built)
  --only patterns      only the pattern-search stage, on the --index already built (Loogle's documented queries)
  --pattern-mode M     bm25 or hybrid: the signals that order that stage's matches (default: hybrid with vectors)
  --patterns FILE      the pattern queries and their expected answers (default: bench/loogle-patterns.json)

example:
  premise-lsp bench --mathlib ~/mathlib4 --batteries ~/batteries
  premise-lsp bench --only project --project ~/pfr --project ~/FLT
`,
};

/** `--help` / `-h` among a command's own arguments (those before a `--`). */
export function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}
