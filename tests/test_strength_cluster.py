"""The strength match on a Dask cluster: ``bench_strength --scheduler`` plays its games on the
cluster's workers (a local cluster here, as a course author's bigger machine would run one), and
a scheduler that is not there is one sentence."""

import json

import pytest

from benchmarks import bench_strength

pytest.importorskip("distributed")


def test_a_two_game_match_is_played_on_a_local_dask_cluster(tmp_path, capsys):
    from fanorona.tournament.cluster import cluster_without_http

    record = tmp_path / "games.jsonl"
    with cluster_without_http(2) as cluster:
        argv = ["--new-spec", "greedy", "--old-spec", "random", "--games", "2", "--jobs", "2"]
        argv += ["--scheduler", cluster.scheduler_address, "--record", str(record)]
        assert bench_strength.main(argv) == 0
        workers = len(cluster.workers)
        # the arena's _play_one ran there once a game (Dask names tasks without the underscore)
        played = cluster.scheduler.task_prefixes.get("play_one")
        assert played is not None and played.state_counts["memory"] == 2, "not on the cluster"
    out = capsys.readouterr().out
    games = [json.loads(line) for line in record.read_text().splitlines()[1:]]
    assert workers == 2 and sorted(g["index"] for g in games) == [0, 1]
    assert games[0]["opening"] == games[1]["opening"] and games[0]["a_white"] != games[1]["a_white"]
    assert "score of the new side as white" in out.lower(), out


def test_a_scheduler_that_is_not_there_is_one_sentence(capsys):
    with pytest.raises(SystemExit):
        bench_strength.main(["--games", "2", "--scheduler", "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert "--scheduler tcp://127.0.0.1:1: nothing answers there" in err, err
    assert "Traceback" not in err
