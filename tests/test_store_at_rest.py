"""A store at rest is one file: after a run and the commands that read it
(or write beside it: findings), nothing of SQLite's WAL mode (-wal, -shm)
is left beside it for a user to wonder about or to forget to copy."""
from conftest import trebuchet


def test_nothing_but_the_store_is_left_beside_it(tmp_path):
    shards = [tmp_path / f"shard-{k}.db" for k in (1, 2)]
    for k, db in enumerate(shards, 1):
        trebuchet("run", "--target", "stdio", "--functions", "fclose,fflush", "--cap", "10",
                  "--shard", f"{k}/2", "--db", db, "--quiet")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shard-1.db", "shard-2.db"]
    db = tmp_path / "merged.db"
    trebuchet("merge", *shards, "--out", db)
    trebuchet("findings", "--db", db)
    trebuchet("report", "--db", db, "--out", tmp_path / "report")
    trebuchet("export", "--db", db, "--out", tmp_path / "all.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "all.json", "merged.db", "report", "shard-1.db", "shard-2.db"]
