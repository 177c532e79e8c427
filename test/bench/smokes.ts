// Every benchmark at a tiny size: its npm script, its flags, what it writes and what that must say.
// test/bench/smoke.test.ts runs each; a new benchmark script without an entry here fails it.
// In the flags, OUT/ is the smoke's own folder and SMOKES/ the folder of all of them; evaluation
// data comes from bench/fixtures/eval/, never ../shared/eval, so the smoke is the same in CI.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

export interface Smoke {
  /** The npm script. */
  script: string;
  /** Its name where one script has two smokes, and its folder's (SMOKES/<name>). */
  name?: string;
  /** Its flags at the tiny size, as on a command line. */
  flags: string;
  /** Files it writes into OUT/: each `.json` must parse, each `.md` must hold a table. */
  writes: string[];
  /** What the output must say beyond being well formed (`json`: the first file written, parsed). */
  // biome-ignore lint/suspicious/noExplicitAny: each benchmark's JSON has a shape of its own, read as written.
  check(json: any, output: string): void;
  /** The smoke whose folder this one reads, by name: it runs after that one. */
  after?: string;
  timeoutS?: number;
}

const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const names = (rows: { name?: string; engine?: string; runtime?: string }[]) =>
  rows.map((row) => row.name ?? row.engine ?? row.runtime);

// Longest first, so that the rest fill the other slot (the bench project runs two at a time).
export const smokes: Smoke[] = [
  {
    script: 'bench:browser',
    flags: '--smoke --n 300 --runs 1 --model-runs 1 --profile OUT/profile --json OUT/browser.json',
    writes: ['browser.json', 'browser.md'],
    check: (report) => {
      expect(report.large.runs).toHaveLength(2);
      expect(report.large.ingest).toHaveLength(1);
      expect(report.corpora.map((c: { embedder: string }) => c.embedder)).toEqual(['words', 'model']);
    },
    timeoutS: 300,
  },
  {
    script: 'bench:vector',
    flags: '--n 200 --dims 16 --queries 10 --json OUT/index.json',
    writes: ['index.json', 'index.md'],
    check: (rows) => {
      expect(rows).toHaveLength(10);
      // A peer that crashed or timed out still gets a row, of nulls and a note: none may.
      for (const row of rows)
        expect([row.engine, finite(row.build_s), finite(row.recall10)]).toEqual([row.engine, true, true]);
    },
  },
  {
    script: 'bench:vector:side-by-side',
    flags: '--n 200 --dims 16 --queries 10 --rounds 1 --passes 1 --json OUT/side-by-side.json',
    writes: ['side-by-side.json', 'side-by-side.md'],
    check: (report) => expect(report.rounds).toHaveLength(1),
  },
  {
    script: 'bench:embed',
    flags:
      '--runtimes node,chromium-worker --dtypes q8 --batches 8 --node-threads 1 --browser-threads 1 --reps 1 ' +
      '--sentences 16 --corpus bench/fixtures/eval/scifact/corpus.jsonl --json OUT/embed.json',
    writes: ['embed.json', 'embed.md'],
    check: (rows) => {
      expect(names(rows)).toEqual(['node', 'chromium-worker']);
      for (const row of rows) expect(row.sentences_per_s).toBeGreaterThan(0);
    },
  },
  {
    script: 'bench:store',
    flags: '--n 200 --batch 100 --embed-sample 8 --json OUT/store.json',
    writes: ['store.json', 'store.md'],
    check: (rows) => {
      expect(names(rows)).toEqual(['node+fake-indexeddb', 'node+memory']);
      for (const row of rows) {
        expect([row.same_hits_after_reopen, finite(row.reopen_ms), finite(row.first_scope_ms)]).toEqual([
          true,
          true,
          true,
        ]);
      }
    },
  },
  {
    script: 'bench:lexical',
    flags: '--runs 1 --scale 200 --eval-dir bench/fixtures/eval --json OUT/lexical.json',
    writes: ['lexical.json', 'lexical.md'],
    check: ({ rows }) => {
      expect(names(rows)).toEqual([
        'Longship Bm25Index',
        'MiniSearch (previous)',
        'Orama 3',
        'Longship Bm25Index',
      ]);
      for (const row of rows) expect(row.same_after_load).toBe(true);
      expect(rows[0].ndcg_at_10).toBeGreaterThan(0.5);
    },
  },
  {
    script: 'bench:quality',
    flags:
      '--format beir --dir bench/fixtures/eval/scifact --split train --alphas 0.5 --json OUT/quality.json',
    writes: ['quality.json', 'quality.md'],
    check: (report) => {
      expect(names(report.configs)).toEqual(['default', 'dense', 'bm25', 'hybrid', 'walk-a0.5']);
      for (const config of report.configs) expect(config.recall10).toBeGreaterThan(0.5);
    },
  },
  {
    script: 'bench:glove',
    flags:
      '--glove bench/fixtures/glove.json --dir bench/fixtures/eval/scifact --cuts 20,all --weights 0.5,0.8 ' +
      '--timing-queries 3 --rag courses --rag-data bench/rag/fixtures --json OUT/glove.json',
    writes: ['glove.json', 'glove.md'],
    check: (report) => {
      // Each mode: the bundled model alone, then each cut (20 words, all 39) with each pooling.
      const rows = report.rows.map((r: { mode: string; words: number | null; pooling: string | null }) =>
        [r.mode, r.words, r.pooling].join(' '),
      );
      const blends = ['20 mean', '20 sif', '39 mean', '39 sif'];
      expect(rows).toEqual(
        ['default', 'dense'].flatMap((mode) => [`${mode}  `, ...blends.map((b) => `${mode} ${b}`)]),
      );
      for (const row of report.rows) {
        for (const score of [row.tuning, row.reporting]) expect(score >= 0 && score <= 1).toBe(true);
      }
      // 39 words × 8 bytes, 8 scales of 4 bytes, and the word list, one a line.
      const list = report.rows.find((r: { words: number | null }) => r.words === 39).int8Bytes - 39 * 8 - 32;
      expect(list).toBe(
        Buffer.byteLength(JSON.parse(readFileSync('bench/fixtures/glove.json', 'utf8')).words.join('\n')),
      );
      // The course's evidence is there to be found, by the bundled model alone and by each cut's blend.
      expect(
        report.rag.rows.map((row: { name: string }) => row.name.split(' ').slice(0, 2).join(' ')),
      ).toEqual(['bundled', 'glove 20', 'glove 39']);
      for (const row of report.rag.rows) expect(row.recall5.all).toBeGreaterThan(0);
      expect([finite(report.query_embedding.bundledMs), finite(report.query_embedding.blendedMs)]).toEqual([
        true,
        true,
      ]);
    },
  },
  {
    script: 'bench:memory',
    flags: '--file bench/fixtures/eval/locomo.json --embedder words --json OUT/memory.json',
    writes: ['memory.json', 'memory.md'],
    check: (report) => {
      expect([report.conversations, report.questions, report.turns]).toEqual([1, 4, 8]);
      expect(report.find.recall10).toBeGreaterThan(0);
    },
  },
  {
    script: 'bench:memory:lifecycle',
    flags:
      '--file bench/fixtures/eval/locomo.json --embedder words --sessions 3 --thresholds 0.8 ' +
      '--json OUT/memory-lifecycle.json',
    writes: ['memory-lifecycle.json', 'memory-lifecycle.md'],
    check: (report) => {
      expect([report.conversations, report.questions]).toEqual([1, 4]);
      expect(report.conditions.map((c: { name: string }) => c.name)).toEqual([
        'before, decay off',
        'before, decay on',
        'before, decay, 7-day window',
        'after 0.8, decay off',
        'after 0.8, decay on',
        'after 0.8, decay, 7-day window',
      ]);
      expect(report.conditions[0].recall10).toBeGreaterThan(0);
      expect(report.conditions[3].second_run_merges).toBe(0);
      expect(report.growth.with_ttl.length).toBeGreaterThan(0);
    },
  },
  {
    script: 'bench:install',
    // The package as built (npm ci built it), and none of the peers: they would be downloaded.
    flags: '--only longship --no-prepare --json OUT/install.json',
    writes: ['install.json', 'install.md'],
    check: ({ rows }) => {
      expect(names(rows)).toEqual(['longship']);
      expect(rows[0].node_modules_bytes).toBeGreaterThan(rows[0].unpacked_bytes);
    },
  },
  {
    script: 'test:model',
    flags: '--ops 150 --runs 2 --commands 25 --seed 7',
    writes: [],
    check: (_, output) => expect(output).toMatch(/model test: \d+ calls, no failure/),
  },
  {
    script: 'test:model',
    name: 'test:model --fuzz',
    flags: '--fuzz --inputs 100 --seed 7',
    writes: [],
    check: (_, output) => expect(output).toMatch(/fuzz: 100 inputs in \d+ s/),
  },
  {
    script: 'bench:rag',
    flags: '--smoke --out OUT/.',
    writes: ['rag-courses.json', 'rag-courses.md', 'rag-chats.json', 'rag-chats.md'],
    check: (report, output) => {
      expect(report.configs.length).toBeGreaterThan(1);
      for (const config of report.configs) {
        expect([config.name, finite(config.recall5), finite(config.p50Ms)]).toEqual([
          config.name,
          true,
          true,
        ]);
        // The fixture's evidence is there to be found: a harness that finds nothing is broken.
        expect(config.recall5).toBeGreaterThan(0);
        // Every figure for the tuning half and the reporting half too: one course each.
        for (const half of [config.halves.tuning, config.halves.reporting]) {
          expect([half.questions > 0, finite(half.recall5), finite(half.recallAtChars['8000'])]).toEqual([
            true,
            true,
            true,
          ]);
        }
        expect(config.halves.tuning.questions + config.halves.reporting.questions).toBe(config.questions);
      }
      expect([
        report.halves.by,
        report.halves.tuning.groups.length,
        report.halves.reporting.groups.length,
      ]).toEqual(['document', 1, 1]);
      expect(output).toMatch(/\| config \| R@5 tuning \| R@5 reporting \| R@5 all \|/);
      // context() at each budget: never over it, and the fixture's evidence found within it.
      expect(report.assembly.rows.map((row: { tokens: number }) => row.tokens)).toEqual([1000, 2000, 4000]);
      for (const row of report.assembly.rows) {
        expect(row.overBudget).toBe(0);
        expect(row.recall).toBeGreaterThan(0);
      }
    },
  },
  {
    script: 'bench:no-match',
    flags: '--smoke --out OUT/.',
    writes: ['no-match.json', 'no-match.md'],
    check: (report) => {
      expect(report.datasets.map((d: { dataset: string }) => d.dataset)).toEqual(['courses', 'chats']);
      const [courses] = report.datasets;
      expect(courses.curve).toHaveLength(101);
      // The courses' evidence is found and scored above 0.5; the chats' questions find nothing there.
      expect(courses.counts.all.answered).toBeGreaterThan(0);
      expect([courses.atSuggested.all.kept, courses.atSuggested.all.dropped]).toEqual([1, 1]);
      expect(finite(report.chosen.t)).toBe(true);
      expect(report.whatIf.length).toBeGreaterThan(1);
    },
  },
  {
    script: 'bench:session',
    flags: '--sizes 10,100 --window 20 --json OUT/session.json',
    writes: ['session.json', 'session.md'],
    check: (report) => {
      expect(report.rows.map((row: { pending: number }) => row.pending)).toEqual([10, 100]);
      for (const row of report.rows)
        expect([row.p50Ms, row.p95Ms, row.contextP50Ms].every(finite)).toBe(true);
      expect(finite(report.ratio)).toBe(true);
    },
  },
  {
    script: 'bench:shard',
    flags: '--dir bench/fixtures/eval/scifact --queries 5 --shards 2,4 --folders 6 --json OUT/shard.json',
    writes: ['shard.json', 'shard.md'],
    check: (report) => {
      // The corpus over shards answers every query as the one store does.
      for (const row of report.equality) expect(row.identical).toBe(row.queries);
      expect(report.fanOut.map((row: { shards: number }) => row.shards)).toEqual([1, 2, 4]);
      for (const row of report.fanOut) expect([row.p50Ms, row.parallelP50Ms].every(finite)).toBe(true);
      // And under workerd, over Durable Objects.
      expect(report.workerd.map((row: { shards: number }) => row.shards)).toEqual([1, 2, 4]);
      for (const row of report.workerd) expect(finite(row.p50Ms)).toBe(true);
    },
  },
  {
    script: 'bench:ovpack',
    flags: '--sizes 20,60 --json OUT/ovpack.json',
    writes: ['ovpack.json', 'ovpack.md'],
    check: (report) => {
      // 20 files: 1 subdirectory and the root; 60: 1 and the root.
      expect(report.rows.map((row: { nodes: number; phase: string }) => [row.nodes, row.phase])).toEqual([
        [22, 'export'],
        [22, 'import'],
        [62, 'export'],
        [62, 'import'],
      ]);
      for (const row of report.rows)
        expect(
          [
            row.seconds,
            row.packMb,
            row.peakHeapGrowthMb,
            row.peakLiveHeapGrowthMb,
            row.heldAfterMb,
            row.peakRssGrowthMb,
          ].every(finite),
        ).toBe(true);
    },
  },
  {
    script: 'bench:scale',
    // Two tiny sizes, one cold open each: a Durable Object under Miniflare, its memory read by the inspector.
    flags: '--sizes 200,400 --opens 1 --queries 5 --tail 3 --json OUT/scale.json',
    writes: ['scale.json', 'scale.md'],
    check: (report) => {
      expect(report.rows.map((row: { passages: number }) => row.passages)).toEqual([200, 400]);
      expect(report.scriptHeap.minifiedMb).toBeGreaterThan(0);
      expect(report.scriptHeap.bundledMb).toBeGreaterThan(0);
      for (const row of report.rows) {
        // Opened from its snapshots, the tail of single writes replayed from the log.
        expect(row.openedFrom).toEqual({ vector: 'snapshot', lexical: 'snapshot', nodes: 'snapshot' });
        expect(row.logCommits).toBe(3);
        expect(row.vectors).toBeGreaterThan(row.passages);
        expect(row.resultsPerFind).toBeGreaterThan(0);
        for (const mb of [row.heapBeforeMb, row.heapOpenMb, row.wasmMb, row.indexMb, row.databaseMb])
          expect(mb).toBeGreaterThan(0);
        expect([row.openMedianMs, row.findP50Ms, row.findP95Ms, row.totalMb].every(finite)).toBe(true);
        expect(row.emptyLog.totalMb).toBeGreaterThan(0);
      }
    },
  },
  {
    script: 'bench:documents',
    // The smallest report the fixture makes (4 pages); the baseline is HEAD, there in any clone.
    flags:
      '--pdf-pages 4 --docx-sections 2 --pptx-slides 2 --xlsx-rows 20 --runs 2 --ingest-pages 4 ' +
      '--embedders words,model --baseline HEAD --json OUT/documents.json',
    writes: ['documents.json', 'documents.md'],
    check: (report) => {
      expect(report.throughput.map((row: { parser: string }) => row.parser)).toEqual([
        'convertPdf',
        'pdf.js text only',
        'convertDocx',
        'mammoth HTML only',
        'convertPptx',
        'convertXlsx',
      ]);
      for (const row of report.throughput)
        expect([row.parser, row.units_per_s > 0]).toEqual([row.parser, true]);
      expect(report.ingest.map((row: { embedder: string }) => row.embedder)).toEqual([
        'word-hash embedder',
        'bundled model',
      ]);
      // Every reader loads something beyond the base, and none of their libraries is in the base.
      for (const reader of report.bundle.readers) expect(reader.firstLoad.gzip).toBeGreaterThan(0);
      const readerLibraries = /^(pdfjs-dist|mammoth|jszip|@xmldom|fflate)\b/;
      expect(Object.keys(report.bundle.base.inputs).filter((input) => readerLibraries.test(input))).toEqual(
        [],
      );
      expect(finite(report.growthGzip)).toBe(true);
    },
  },
  {
    script: 'bench:demo',
    // Hashed words, one run, 8 files: the page's three measures under each serving, end to end.
    flags: '--smoke --json OUT/demo.json',
    writes: ['demo.json', 'demo.md'],
    check: (report) => {
      expect(names(report.configs)).toEqual(['plain', 'isolated', 'isolated, dedicated worker']);
      for (const config of report.configs) {
        expect([config.firstOpen.length, config.reload.length, config.index.length]).toEqual([1, 1, 1]);
        expect(config.firstOpen[0].resultMs).toBeGreaterThan(config.firstOpen[0].enabledMs);
        expect(config.index[0].pagesPerS).toBeGreaterThan(0);
      }
      // What the servings are for: the headers isolate the page, and the dedicated worker with it.
      expect(report.configs.map((c: { pageIsolated: boolean }) => c.pageIsolated)).toEqual([
        false,
        true,
        true,
      ]);
      expect(report.configs[2].workerIsolated).toBe(true);
    },
  },
  {
    script: 'bench:extension',
    // Ten pages, one restart: the example built from the packed package, in Debian's Chromium.
    flags: '--smoke --json OUT/extension.json',
    writes: ['extension.json', 'extension.md'],
    check: (report) => {
      expect(report.pages).toBe(10);
      expect(report.runs).toHaveLength(1);
      const [run] = report.runs;
      expect(run.results).toBeGreaterThan(0);
      expect(run.nextSearchMs).toBeGreaterThan(0);
      expect(run.pssBeforeBytes).toBeGreaterThan(0);
      expect(run.pssIdleBytes).toBeGreaterThan(0);
      // The saved pages are in the extension's IndexedDB and the index snapshots in OPFS.
      expect(report.disk.indexedDbBytes).toBeGreaterThan(0);
      expect(report.disk.opfsBytes).toBeGreaterThan(0);
    },
    timeoutS: 240,
  },
  {
    script: 'bench:huge-pages',
    after: 'bench:browser',
    // Never the kernel's setting from a test: the opens with the machine's pages alone.
    flags:
      '--profile SMOKES/bench-browser/profile --n 300 --runs 1 --machine-pages-only --json OUT/huge-pages.json',
    writes: ['huge-pages.json', 'huge-pages.md'],
    check: (report) => expect(report.opens).toHaveLength(2),
  },
];

/** The scripts that must have a smoke: every benchmark, and the model test's long run. */
export const needsSmoke = (script: string) => script.startsWith('bench:') || script === 'test:model';

export const nameOf = (smoke: Smoke) => smoke.name ?? smoke.script;

/** The folder of the smoke of this name, under the folder of all of them. */
export const folderName = (name: string) => name.replace(/\W+/g, '-');
