-- The trebuchet store: the only definition of its tables.
--
-- Both the executor (C, harness/store.c) and the reports (Python) read this
-- file; each checks PRAGMA user_version against the version it was built for
-- and refuses a store of another version with a one-line error.
-- Bump the version line below whenever a table changes.
PRAGMA user_version = 15;

-- One execution of a set of functions of one target.
CREATE TABLE IF NOT EXISTS runs (
    id              INTEGER PRIMARY KEY,
    target          TEXT    NOT NULL,
    extends         TEXT,               -- the target whose spec this one extends (its "before"), or NULL
    target_version  TEXT    NOT NULL,   -- e.g. "glibc 2.36"
    host            TEXT    NOT NULL,
    harness_version TEXT    NOT NULL,
    seed            INTEGER NOT NULL,
    cap             INTEGER NOT NULL,   -- most cases drawn per function
    timeout_ms      INTEGER NOT NULL,   -- watchdog limit per case
    jobs            INTEGER NOT NULL,
    functions       TEXT    NOT NULL,   -- comma-separated selection, in run order
    started         TEXT    NOT NULL,   -- UTC, ISO 8601
    finished        TEXT,               -- NULL until every case is stored
    -- what decides which cases a run holds and what they mean: two runs
    -- compare case by case only when these are equal (`trebuchet gate`)
    dictionary      TEXT    NOT NULL,   -- the value dictionary, e.g. "ours"
    dictionary_digest TEXT  NOT NULL,   -- of every value name of the target's datatypes
    spec_digest     TEXT    NOT NULL,   -- of the spec's functions: names, C types, datatypes, error conventions
    shard           INTEGER NOT NULL DEFAULT 1,  -- this run holds shard K of N ...
    shards          INTEGER NOT NULL DEFAULT 1,  -- ... of the campaign's cases; 1 of 1: all of them
    spec            TEXT,               -- the spec's path as `trebuchet run --target` was given it
                                        -- (from the directory it ran in); NULL: a target named under targets/
    -- the namespaces around the test processes (harness/isolation.c):
    -- 'full' (root: read-only filesystem but scratch, private /tmp, no
    -- network, private IPC and PIDs; tests as nobody), 'user' (the same in
    -- an unprivileged user namespace), 'none' (refused, or --no-sandbox)
    sandbox         TEXT    NOT NULL DEFAULT 'none',
    -- with the sandbox, the platform the outcomes belong to: what a case
    -- does with freed memory legitimately differs between C libraries and
    -- their versions (`trebuchet compare` and the gate say so in one line)
    libc            TEXT    NOT NULL DEFAULT 'unknown',  -- the C library the executor ran on: "glibc 2.36"
    kernel          TEXT    NOT NULL DEFAULT 'unknown',  -- "Linux 6.1.0-18-amd64 x86_64"
    -- `run --pin`: the values some parameters were held to, space-separated
    -- FUNCTION.PARAM#POSITION=DATATYPE:VALUE,... (harness/pins.h); the run
    -- drew from their product with the other parameters' values.  '': none
    pins            TEXT    NOT NULL DEFAULT '',
    -- `run --sanitizer`: the runtime the plugin was built for and test
    -- processes ran under ("address"; harness/world.c); '': none
    sanitizer       TEXT    NOT NULL DEFAULT ''
);

-- `run --values-file`: the cases such a run holds, and only those (with
-- --resume, the cases it still has to run).  A run with no row here drew
-- its cases from its functions' products.
CREATE TABLE IF NOT EXISTS listed_cases (
    run_id     INTEGER NOT NULL REFERENCES runs(id),
    function   TEXT    NOT NULL,
    case_index INTEGER NOT NULL,  -- index into the full cross product
    PRIMARY KEY (run_id, function, case_index)
);

-- One function of one run: its signature and its case counts.
CREATE TABLE IF NOT EXISTS functions (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    name        TEXT    NOT NULL,
    signature   TEXT    NOT NULL,
    datatypes   TEXT    NOT NULL,  -- parameter datatypes, space-separated
    cases_total INTEGER NOT NULL,  -- size of the full cross product
    cases_drawn INTEGER NOT NULL,  -- min(cases_total, cap); pinned: min(the pinned product, cap);
                                   -- listed: the cases listed
    cases_run   INTEGER NOT NULL DEFAULT 0,  -- set when the function is complete
    -- 1: it returns a 64-bit unsigned integer, whose values from 2^63 on
    -- results.ret (SQLite's signed 64 bits) holds as their two's complement
    unsigned_return INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, name)
);

-- One test case: one tuple of test values handed to one function.
CREATE TABLE IF NOT EXISTS results (
    run_id         INTEGER NOT NULL,
    function       TEXT    NOT NULL,
    case_index     INTEGER NOT NULL,  -- index into the cross product
    value_names    TEXT    NOT NULL,  -- "datatype:VALUE" per parameter, space-separated
    outcome        TEXT    NOT NULL CHECK (outcome IN ('PASS', 'ABORT', 'RESTART', 'SETUP')),
    signal         INTEGER,           -- ABORT by signal, or a signal during cleanup
    exit_status    INTEGER,           -- ABORT by exit() from inside the call
    ret            INTEGER,           -- PASS: the return value (pointers as integers; a floating
                                      -- one a REAL, or an INTEGER when whole, NaN the text 'NaN')
    errno          INTEGER,           -- PASS: errno right after the call
    error_reported INTEGER,           -- PASS: 1 if the error convention says an error
    setup_param    INTEGER,           -- SETUP: index of the parameter that failed
    duration_us    INTEGER NOT NULL,  -- fork to reap
    cleanup_failed INTEGER NOT NULL DEFAULT 0,  -- PASS, then cleanup crashed or hung
    channel_damaged INTEGER NOT NULL DEFAULT 0, -- the call scribbled on the result record
    stderr         BLOB,              -- ABORT, RESTART: the end of what the test process wrote to
                                      -- descriptor 2 (its last lines, 512 bytes at most), or NULL
    setup_errno    INTEGER,           -- SETUP: errno as the value's setup failed (NULL when the
                                      -- setup crashed or hung: then signal says how)
    setup_reason   TEXT,              -- SETUP: why, in the setup's own words (tb_setup_fail), or NULL
    -- a case the watchdog stopped (CPU limit or wall-clock deadline) is run
    -- once more, alone, at four times both (harness/forkserver.h), and
    -- that second look's result is the one stored: its CPU time here, NULL
    -- for a case stopped by nothing.  A PASS with it set is slow
    second_look_cpu_us INTEGER,
    PRIMARY KEY (run_id, function, case_index),
    FOREIGN KEY (run_id, function) REFERENCES functions(run_id, name)
);

-- Where a failing case ended, taken in the test process as it died (a
-- handler on an alternate signal stack): ABORT by a signal, and RESTART
-- (the watchdog's signal).  Frames are module + offset; the reports
-- symbolize them after the run (src/trebuchet/findings/symbolize.py).
CREATE TABLE IF NOT EXISTS crash_sites (
    run_id      INTEGER NOT NULL,
    function    TEXT    NOT NULL,
    case_index  INTEGER NOT NULL,
    signal      INTEGER NOT NULL,  -- the signal the handler caught
    code        INTEGER NOT NULL,  -- its si_code
    fault_addr  INTEGER,           -- si_addr (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP), else NULL
    sp          INTEGER,           -- the stack pointer at the fault
    stack_depth INTEGER,           -- bytes from the stack's top at the call to sp
    frames      TEXT    NOT NULL,  -- innermost first, one per line, "MODULE+0xOFFSET": line 1 is
                                   -- the faulting pc, the rest return addresses; '' if unwinding failed
    PRIMARY KEY (run_id, function, case_index)
);

-- Findings (src/trebuchet/findings/signature.py), made from the run's results, crash sites
-- and the spec's contract when the run ends (and when shards are merged).
--
-- Each value a function's parameter took, and whether the spec's contract
-- accepts it there: not misuse by its datatype, not left undefined by the
-- parameter.  The rate over acceptable values counts the cases whose
-- values are all acceptable.
CREATE TABLE IF NOT EXISTS run_values (
    run_id     INTEGER NOT NULL,
    function   TEXT    NOT NULL,
    param      INTEGER NOT NULL,  -- 0-based
    value      TEXT    NOT NULL,  -- "datatype:VALUE", as results.value_names has it
    acceptable INTEGER NOT NULL,
    PRIMARY KEY (run_id, function, param, value)
);

-- One distinct defect: the failing cases (or broken error promises) of a
-- run that share a signature.
CREATE TABLE IF NOT EXISTS findings (
    run_id      INTEGER NOT NULL,
    id          INTEGER NOT NULL,  -- 1.. within the run: contract violations first
    signature   TEXT    NOT NULL,  -- kind, then the frames that name it, '|'-separated
    fingerprint TEXT    NOT NULL,  -- of target and signature: the same defect in another run
    kind        TEXT    NOT NULL,  -- SIGSEGV, stack-overflow, assertion, abort, hang, exit, no-error, errno, ...
    title       TEXT    NOT NULL,  -- one line naming it
    functions   TEXT    NOT NULL,  -- the tested functions among its cases, comma-separated
    cases       INTEGER NOT NULL,
    misuse_cases INTEGER NOT NULL, -- of them, cases holding a value that is not acceptable
    trigger     TEXT    NOT NULL,  -- what its cases' values share, per function
    location    TEXT,              -- file:line of the frame that names it, when known
    frame       TEXT,              -- that frame: "function (file:line)", "function (module)",
                                   -- or "module+0xOFFSET"; NULL when no frame names it
    frames      TEXT    NOT NULL,  -- the representative's symbolized frames, innermost first
    violation   TEXT,              -- the promise its cases break and where it is written, or NULL
    violating_cases INTEGER NOT NULL,
    example_function TEXT NOT NULL, -- the representative case: fewest unacceptable values
    example_case     INTEGER NOT NULL,
    stderr      TEXT,              -- the representative case's last words
    cause       TEXT,              -- what its failure needs, by minimisation: "buf = NULL; len = ONE",
                                   -- "" when any values will do; NULL when not minimised
    minimised_case INTEGER,        -- the representative minimised (of example_function): its
                                   -- other values replaced by passing ones; NULL: not minimised
    flaky       TEXT,              -- its shown case run again (findings/flaky.py), when a run ended
                                   -- another way: each run's outcome, "ABORT exit 3; PASS; ...";
                                   -- NULL when every run ended as it did
    PRIMARY KEY (run_id, id)
);

-- The cases run to minimise failing cases (src/trebuchet/findings/minimise.py):
-- a failing case's values replaced one at a time by the value of that
-- parameter found in the most PASS cases of its function.  Apart from
-- results: never counted in a rate.  A replacement the run held already is
-- read from results, not run again, and is not here.
CREATE TABLE IF NOT EXISTS minimised_cases (
    run_id      INTEGER NOT NULL,
    function    TEXT    NOT NULL,
    case_index  INTEGER NOT NULL,  -- in the function's product, as results numbers them
    value_names TEXT    NOT NULL,
    outcome     TEXT    NOT NULL,
    signal      INTEGER,
    frames      TEXT    NOT NULL,  -- as crash_sites.frames; '' when it left no site
    PRIMARY KEY (run_id, function, case_index)
);

-- The runs whose findings were made (a run may have none: this tells it
-- from a run never analyzed, which the gate compares case by case).
CREATE TABLE IF NOT EXISTS findings_made (
    run_id INTEGER PRIMARY KEY
);

CREATE TABLE IF NOT EXISTS finding_cases (
    run_id     INTEGER NOT NULL,
    function   TEXT    NOT NULL,
    case_index INTEGER NOT NULL,
    finding    INTEGER NOT NULL,  -- findings.id
    PRIMARY KEY (run_id, function, case_index)
);

-- A run repeated (`trebuchet run --repeat N`): every case ran N times, the
-- stored result first; a case whose outcome or signal differed between
-- repetitions is flaky (a harness bug or an environment leak until explained).
CREATE TABLE IF NOT EXISTS repeats (
    run_id  INTEGER PRIMARY KEY REFERENCES runs(id),
    times   INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS flaky (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    function    TEXT    NOT NULL,
    case_index  INTEGER NOT NULL,
    outcomes    TEXT    NOT NULL,  -- each repetition's, in order: "PASS, ABORT SIGSEGV, PASS"
    PRIMARY KEY (run_id, function, case_index)
);

-- `trebuchet memcheck` (src/trebuchet/memcheck/valgrind.py): PASS cases of a run run again
-- under Valgrind's memcheck.  CORRUPT (corrupt = 1): the call returned, and
-- memcheck saw it read or write memory it must not; the first such error's
-- kind, text and stack (down to the call shim) are kept.
CREATE TABLE IF NOT EXISTS memcheck (
    run_id     INTEGER NOT NULL REFERENCES runs(id),
    function   TEXT    NOT NULL,
    case_index INTEGER NOT NULL,
    corrupt    INTEGER NOT NULL,  -- 1: CORRUPT; 0: clean, or not judged (outcome)
    outcome    TEXT    NOT NULL,  -- the case's outcome under memcheck: PASS, or what slowed or changed it
    kind       TEXT,              -- memcheck's: InvalidRead, InvalidWrite, UninitCondition, ...
    what       TEXT,              -- its text, then the address's description
    frames     TEXT,              -- "function (object) file:line", one a line, the call shim's last
    seconds    REAL    NOT NULL,  -- the case's cost under memcheck, the executor's start included
    PRIMARY KEY (run_id, function, case_index)
);

-- One `trebuchet bench io`: the study's I/O benchmarks, each run on every
-- library in every repetition.
CREATE TABLE IF NOT EXISTS bench_runs (
    id              INTEGER PRIMARY KEY,
    suite           TEXT    NOT NULL DEFAULT 'io',
    host            TEXT    NOT NULL,
    harness_version TEXT    NOT NULL,
    libraries       TEXT    NOT NULL,   -- comma-separated, e.g. "stdio,sfio,robust_sfio"
    benchmarks      TEXT    NOT NULL,   -- comma-separated selection
    blocks          TEXT    NOT NULL,   -- comma-separated block sizes of the block benchmarks
    size_mib        INTEGER,            -- every file's size, or NULL: each benchmark's default
    repeat          INTEGER NOT NULL,   -- repetitions; each runs every library once
    cold            INTEGER NOT NULL,   -- 1: page cache dropped before each measurement
    started         TEXT    NOT NULL,   -- UTC, ISO 8601
    finished        TEXT                -- NULL until every measurement is stored
);

-- One measurement: one benchmark at one block size on one library, once.
CREATE TABLE IF NOT EXISTS bench_results (
    run_id      INTEGER NOT NULL REFERENCES bench_runs(id),
    benchmark   TEXT    NOT NULL,   -- copyrw, getc, putc, read, revrd, seekrw, write, records
    block       INTEGER NOT NULL,   -- bytes per transfer; 0 for byte and record benchmarks
    library     TEXT    NOT NULL,   -- stdio, sfio, robust_sfio
    repetition  INTEGER NOT NULL,   -- 1..repeat
    sequence    INTEGER NOT NULL,   -- order of the measurement within the run, from 1
    size_bytes  INTEGER NOT NULL,   -- bytes the benchmark moved through its file
    usr_s       REAL    NOT NULL,   -- user CPU seconds of the benchmark process (rusage)
    sys_s       REAL    NOT NULL,   -- system CPU seconds of the benchmark process
    elapsed_s   REAL    NOT NULL,   -- wall-clock seconds from its start to its reaping
    PRIMARY KEY (run_id, benchmark, block, library, repetition)
);

-- One `trebuchet bench protection`: TR-96-20's services (bench/protection/)
-- under each protection scheme, every scheme at every benchmark instance in
-- every repetition.
CREATE TABLE IF NOT EXISTS protection_runs (
    id              INTEGER PRIMARY KEY,
    host            TEXT    NOT NULL,
    harness_version TEXT    NOT NULL,
    schemes         TEXT    NOT NULL,   -- comma-separated, those run (the skipped are in skipped)
    benchmarks      TEXT    NOT NULL,   -- comma-separated: nullc, md5, nsieve, tdbm
    places          TEXT    NOT NULL,   -- comma-separated: same (one CPU), split (a server on a second)
    reps            INTEGER NOT NULL,
    instructions    INTEGER NOT NULL,   -- 1: callgrind counted each in-process scheme's calls once
    skipped         TEXT    NOT NULL,   -- "scheme: why" a line, the schemes that cannot run here
    started         TEXT    NOT NULL,   -- UTC, ISO 8601
    finished        TEXT                -- NULL until every measurement is stored
);

-- One line of `protbench run`: one benchmark instance under one scheme, once.
CREATE TABLE IF NOT EXISTS protection_results (
    run_id      INTEGER NOT NULL REFERENCES protection_runs(id),
    repetition  INTEGER NOT NULL,   -- 1..reps
    sequence    INTEGER NOT NULL,   -- order of the measurement within the run, from 1
    scheme      TEXT    NOT NULL,   -- none, checks, guard-mask, process-copy, pageprot, rust, ...
    place       TEXT    NOT NULL,   -- same, split
    benchmark   TEXT    NOT NULL,   -- nullc, md5, nsieve, tdbm_i, tdbm_f, tdbm_d
    size        INTEGER NOT NULL,   -- nullc: calls; md5: bytes; nsieve: the limit; tdbm: words
    grain       INTEGER NOT NULL,   -- work per call: bytes, candidates, or 1 (tdbm)
    calls       INTEGER NOT NULL,   -- crossings into the service
    ns          INTEGER NOT NULL,   -- wall time of the calls (CLOCK_MONOTONIC)
    result      TEXT    NOT NULL,   -- what the calls computed, the same under every scheme
    PRIMARY KEY (run_id, repetition, scheme, place, benchmark, size, grain)
);

-- Callgrind's count of one instance's calls under one in-process scheme
-- (the instructions of the caller's process, from the call into the
-- scheme to its return; a kernel's work is not seen), with its simulated
-- first-level and last-level cache misses.
CREATE TABLE IF NOT EXISTS protection_instructions (
    run_id       INTEGER NOT NULL REFERENCES protection_runs(id),
    scheme       TEXT    NOT NULL,
    benchmark    TEXT    NOT NULL,
    size         INTEGER NOT NULL,
    grain        INTEGER NOT NULL,
    instructions INTEGER NOT NULL,
    d1_misses    INTEGER NOT NULL,   -- first-level data cache misses, reads and writes
    ll_misses    INTEGER NOT NULL,   -- last-level misses, instructions and data
    PRIMARY KEY (run_id, scheme, benchmark, size, grain)
);
