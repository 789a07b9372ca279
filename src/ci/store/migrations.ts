/**
 * The results schema, versioned with SQLite's user_version: migration i brings a database from version i to
 * i + 1. Never edit a shipped migration; append a new one.
 */
import { NOTABLE, RESULT_VIEW_COLUMNS, STATUS_CODE_SQL } from './result_columns.ts';

export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE runs (
     run_id INTEGER PRIMARY KEY AUTOINCREMENT,
     commit_sha TEXT NOT NULL,
     branch TEXT NOT NULL,
     platform TEXT NOT NULL,
     shard TEXT NOT NULL DEFAULT '1/1',
     tier TEXT NOT NULL,
     filters TEXT NOT NULL DEFAULT '{}',
     started_at TEXT NOT NULL,
     ended_at TEXT,
     status TEXT NOT NULL DEFAULT 'running'
   );
   CREATE TABLE results (
     run_id INTEGER NOT NULL REFERENCES runs(run_id),
     id TEXT NOT NULL,
     op TEXT NOT NULL,
     oracle TEXT NOT NULL,
     device TEXT NOT NULL,
     dtype TEXT NOT NULL,
     layout TEXT NOT NULL,
     mode TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pass','fail','skip','xfail','xpass','flaky','error')),
     duration_ms REAL NOT NULL DEFAULT 0,
     attempts INTEGER NOT NULL DEFAULT 1,
     message TEXT,
     sample INTEGER,
     seed INTEGER,
     checks INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (run_id, id)
   );
   CREATE INDEX results_by_id ON results(id);
   CREATE INDEX results_by_status ON results(run_id, status);`,
  // 2: flaky-test quarantine. The disabled list mirrors the open DISABLED issues (issues are the source of
  // truth); rerun-disabled runs record pass/fail counts per instance; a run says which kind it was.
  `CREATE TABLE disabled_tests (
     key TEXT PRIMARY KEY,
     issue_number INTEGER NOT NULL,
     issue_url TEXT NOT NULL,
     platforms TEXT NOT NULL DEFAULT '[]',
     updated_at TEXT NOT NULL
   );
   ALTER TABLE results ADD COLUMN rerun_passes INTEGER;
   ALTER TABLE results ADD COLUMN rerun_failures INTEGER;
   ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'normal';`,
  // 3: perf samples, keyed by (scenario, metric, commit, platform, node version); `detail` holds per-function
  // inclusive counts (JSON) for `opgate perf diff`.
  `CREATE TABLE perf (
     scenario TEXT NOT NULL,
     metric TEXT NOT NULL,
     value REAL NOT NULL,
     commit_sha TEXT NOT NULL,
     platform TEXT NOT NULL,
     node_version TEXT NOT NULL,
     recorded_at TEXT NOT NULL,
     detail TEXT
   );
   CREATE INDEX perf_by_key ON perf(scenario, metric, commit_sha, platform, node_version);`,
  // 4: the dashboards' grid counts results per (run, device, status); a covering index answers that from the
  // index alone (1.2M results: 0.66 s -> see docs/store.md, "History at scale").
  `CREATE INDEX results_by_run_device_status ON results(run_id, device, status);`,
  // 5: runs that survive being killed. A run records who writes it (pid and host) and a heartbeat, so a reader
  // can tell a run still going from one whose process died (read as 'aborted', see liveness.ts). run_plans
  // keeps the instance ids a run set out to run (gzipped, newline-separated) until it ends passed or failed:
  // `opgate run --resume` runs exactly the planned ids it has no result for, whatever the shard plan or the
  // history say by then.
  `ALTER TABLE runs ADD COLUMN pid INTEGER;
   ALTER TABLE runs ADD COLUMN host TEXT;
   ALTER TABLE runs ADD COLUMN heartbeat_at TEXT;
   CREATE TABLE run_plans (
     run_id INTEGER PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,
     ids BLOB NOT NULL
   );`,
  // 6: the numerics fingerprint. `max_ulp` is an instance's largest error of a floating output in ulps of its
  // dtype (the golden oracle's; NULL where no oracle measured one). The partial index holds only the measured
  // rows, so the per-(op, device, dtype) maxima of a commit and "the previous commit with values" read it alone.
  `ALTER TABLE results ADD COLUMN max_ulp REAL;
   CREATE INDEX results_by_run_ulp ON results(run_id, op, device, dtype, max_ulp, id) WHERE max_ulp IS NOT NULL;`,
  // 7: mutation testing (`opgate mutate`). A mutation run per invocation; a row per mutant with its outcome;
  // a row per (mutant, killer): one in first-failure mode, one per killing oracle with --per-oracle (the
  // kill matrix's "only this oracle kills it" needs them all). `killer` is an oracle name or 'unit'.
  `CREATE TABLE mutation_runs (
     mrun_id INTEGER PRIMARY KEY AUTOINCREMENT,
     commit_sha TEXT NOT NULL,
     branch TEXT NOT NULL,
     started_at TEXT NOT NULL,
     ended_at TEXT,
     mode TEXT NOT NULL,
     args TEXT NOT NULL DEFAULT '{}'
   );
   CREATE TABLE mutants (
     mrun_id INTEGER NOT NULL REFERENCES mutation_runs(mrun_id) ON DELETE CASCADE,
     mutant_id TEXT NOT NULL,
     file TEXT NOT NULL,
     line INTEGER NOT NULL,
     operator TEXT NOT NULL,
     original TEXT NOT NULL,
     mutated TEXT NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('killed','survived','timeout','equivalent','error')),
     killed_by TEXT,
     reason TEXT,
     selected INTEGER NOT NULL DEFAULT 0,
     ran INTEGER NOT NULL DEFAULT 0,
     duration_ms REAL NOT NULL DEFAULT 0,
     PRIMARY KEY (mrun_id, mutant_id)
   );
   CREATE TABLE mutant_kills (
     mrun_id INTEGER NOT NULL,
     mutant_id TEXT NOT NULL,
     killer TEXT NOT NULL,
     test_id TEXT NOT NULL,
     message TEXT,
     PRIMARY KEY (mrun_id, mutant_id, killer),
     FOREIGN KEY (mrun_id, mutant_id) REFERENCES mutants(mrun_id, mutant_id) ON DELETE CASCADE
   );`,
  // 8: shard sets. The shards of one sharded run (same job, same N) share a set id; the first shard to plan
  // stores the partition (gzipped JSON: per shard, its instance ids) and every other shard of the set reads it
  // back instead of planning from a history that the shards themselves are changing. `opgate verify` checks a
  // set's runs against it. `conflict` records a merged shard database that planned a different partition.
  `ALTER TABLE runs ADD COLUMN shard_set TEXT;
   CREATE INDEX runs_by_shard_set ON runs(shard_set) WHERE shard_set IS NOT NULL;
   CREATE TABLE shard_sets (
     set_id TEXT PRIMARY KEY,
     shards INTEGER NOT NULL CHECK (shards >= 1),
     selection_digest TEXT NOT NULL,
     plan_digest TEXT NOT NULL,
     plan BLOB NOT NULL,
     created_at TEXT NOT NULL,
     conflict TEXT
   );`,
  // 9: each instance's recent history, kept as runs end (recent.ts): flake detection and shard planning read one
  // row per instance instead of every result ever stored. `messages` holds each distinct failure message once.
  // `run_cells`: a finished run's result counts per (op, device, dtype, status, skip/xfail reason; msg 0: none),
  // what the grid and coverage views add up instead of counting results.
  // Derived data: filled from the results when an older file is migrated (open.ts), rebuildable at any time.
  `CREATE TABLE messages (
     msg INTEGER PRIMARY KEY,
     text TEXT NOT NULL UNIQUE
   );
   CREATE TABLE instance_recent (
     id TEXT PRIMARY KEY,
     op TEXT NOT NULL,
     oracle TEXT NOT NULL,
     device TEXT NOT NULL,
     outcomes TEXT NOT NULL,
     durations TEXT NOT NULL,
     bad INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX instance_recent_bad ON instance_recent(bad) WHERE bad = 1;
   CREATE TABLE run_cells (
     run_id INTEGER NOT NULL,
     op TEXT NOT NULL,
     device TEXT NOT NULL,
     dtype TEXT NOT NULL,
     status TEXT NOT NULL,
     msg INTEGER NOT NULL,
     n INTEGER NOT NULL,
     PRIMARY KEY (run_id, op, device, dtype, status, msg)
   ) WITHOUT ROWID;`,
  // 10: compact rows. An instance's id, op, oracle, device, dtype, layout and mode are stored once (`instances`),
  // a message once (`messages`); a result row references them by integer, its status is a small code and its
  // duration whole microseconds (result_rows.ts). Keyed (run_id, inst) without a rowid: a run's results are one
  // range of the table, which answers every per-run question; the other indexes of `results` go with it (the
  // grid, coverage and flaky views read the derived tables) but for a partial one of the failing and flaky rows. `results` becomes a view with the old columns, so
  // readers and older queries see what they saw. Every result is carried over (its duration to the microsecond).
  // run_counts: a finished run's results per (device, status), derived like run_cells (the grid adds these up).
  `CREATE TABLE instances (
     inst INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     op TEXT NOT NULL,
     oracle TEXT NOT NULL,
     device TEXT NOT NULL,
     dtype TEXT NOT NULL,
     layout TEXT NOT NULL,
     mode TEXT NOT NULL
   );
   INSERT INTO instances (id, op, oracle, device, dtype, layout, mode)
     SELECT id, MIN(op), MIN(oracle), MIN(device), MIN(dtype), MIN(layout), MIN(mode) FROM results GROUP BY id ORDER BY id;
   INSERT OR IGNORE INTO messages (text) SELECT message FROM results WHERE message IS NOT NULL ORDER BY run_id, id;
   CREATE TABLE result_rows (
     run_id INTEGER NOT NULL,
     inst INTEGER NOT NULL,
     status INTEGER NOT NULL CHECK (status BETWEEN 0 AND 6),
     dur_us INTEGER NOT NULL,
     attempts INTEGER NOT NULL,
     msg INTEGER,
     sample INTEGER,
     seed INTEGER,
     checks INTEGER NOT NULL,
     rerun_passes INTEGER,
     rerun_failures INTEGER,
     max_ulp REAL,
     PRIMARY KEY (run_id, inst)
   ) WITHOUT ROWID;
   INSERT INTO result_rows
     SELECT r.run_id, i.inst, ${STATUS_CODE_SQL('r.status')}, CAST(ROUND(r.duration_ms * 1000) AS INTEGER), r.attempts,
            m.msg, r.sample, r.seed, r.checks, r.rerun_passes, r.rerun_failures, r.max_ulp
     FROM results r JOIN instances i ON i.id = r.id LEFT JOIN messages m ON m.text = r.message
     ORDER BY r.run_id, i.inst;
   CREATE INDEX result_rows_notable ON result_rows(run_id, inst) WHERE ${NOTABLE('result_rows')};
   DROP TABLE results;
   CREATE VIEW results AS SELECT ${RESULT_VIEW_COLUMNS}
     FROM result_rows r JOIN instances i ON i.inst = r.inst LEFT JOIN messages m ON m.msg = r.msg;
   CREATE TABLE run_counts (
     run_id INTEGER NOT NULL,
     device TEXT NOT NULL,
     status TEXT NOT NULL,
     n INTEGER NOT NULL,
     PRIMARY KEY (run_id, device, status)
   ) WITHOUT ROWID;
   INSERT INTO run_counts SELECT run_id, device, status, SUM(n) FROM run_cells GROUP BY 1, 2, 3;`,
  // 11: the runs table indexed for the views' two questions, so neither reads every run ever made: a commit's
  // runs (the counted runs of the shown commits, their stamps) and the newest runs (which commits are newest).
  `CREATE INDEX runs_by_commit ON runs(commit_sha, kind);
   CREATE INDEX runs_by_start ON runs(kind, started_at, run_id);`,
];

/** The first version with `instance_recent`: a file migrated from below it gets the table filled from its results. */
export const RECENT_SINCE = 9;

export const SCHEMA_VERSION = MIGRATIONS.length;
