"""The survey and Spark verdicts at scale: seconds and throughput, and how time grows with the data.

    python benchmarks/bench_survey.py            # survey of the corpus; Spark verdicts for 1M and 2M URLs
    python benchmarks/bench_survey.py --urls 10000000 --cores 1,2

1. `robotscope survey tests/corpus/robots --agents all` (4,231 hosts x the
   catalogue's 65 crawlers) locally with 1 and 2 workers and on Spark
   local[2], each a fresh process (start-up included), Parquet out.
2. Spark verdicts (`robotscope.integrations.spark.verdicts`) for generated
   URLs over the corpus hosts, one crawler (GPTBot), on local[N] for each N
   of --cores: URLs per second, for the sizes of --urls, so a doubling of
   the data shows its doubling of time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "tests" / "corpus" / "robots"
PATHS = ("/", "/search?q={i}", "/products/{i}", "/wp-admin/x", "/tag/news?page={i}", "/images/{i}.jpg")


def survey_seconds(out: Path, *args: str) -> float:
    command = [
        sys.executable,
        "-m",
        "robotscope.cli",
        "survey",
        str(CORPUS),
        "--agents",
        "all",
        "--out",
        str(out),
        "--no-progress",
        "--json",
        *args,
    ]
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def spark_throughput(sizes: list[int], cores: list[int]) -> Iterator[tuple[int, int, float]]:
    """(cores, URLs, seconds) of Spark verdicts for each size and core count, a fresh session per core count."""
    import pyarrow as pa
    from pyspark.sql import SparkSession

    from robotscope.integrations.spark import verdicts

    os.environ["PYSPARK_PYTHON"] = sys.executable
    hosts = [p.name for p in sorted(CORPUS.iterdir()) if p.name != "README.md"]
    for n in cores:
        spark = (
            SparkSession.builder.master(f"local[{n}]")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", str(8 * n))
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        robots = spark.createDataFrame(
            [(f"https://{h}/robots.txt", (CORPUS / h).read_bytes(), 200) for h in hosts],
            "origin string, body binary, status int",
        ).cache()
        robots.count()

        def urls(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
            for batch in batches:
                ids = batch.column("id").to_pylist()
                made = [
                    f"https://{hosts[i % len(hosts)]}" + PATHS[(i // len(hosts)) % len(PATHS)].format(i=i) for i in ids
                ]
                origins = [f"https://{hosts[i % len(hosts)]}/robots.txt" for i in ids]
                yield pa.RecordBatch.from_arrays([pa.array(made), pa.array(origins)], ["url", "origin"])

        for size in sizes:
            frame = spark.range(size, numPartitions=8 * n).mapInArrow(urls, "url string, origin string")
            started = time.perf_counter()
            done = (
                verdicts(frame, robots, ["GPTBot"])
                .selectExpr("count(*) AS n", "sum(CAST(allowed AS INT)) AS allowed")
                .collect()[0]
            )
            seconds = time.perf_counter() - started
            assert done["n"] == size
            yield n, size, seconds
        spark.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urls", default="1000000,2000000", help="sizes of the Spark verdict runs, comma-separated")
    parser.add_argument("--cores", default="1,2", help="Spark local[N] for each N, comma-separated")
    parser.add_argument("--no-survey", action="store_true", help="only the Spark verdict runs")
    args = parser.parse_args()
    if not args.no_survey:
        with tempfile.TemporaryDirectory() as tmp:
            print("| survey of the corpus, 65 crawlers | seconds | host-crawler rows/s |\n|---|---|---|")
            rows = 4231 * 65
            for label, extra in (
                ("local, 1 worker", ["--jobs", "1"]),
                ("local, 2 workers", ["--jobs", "2"]),
                ("Spark local[2]", ["--on", "spark", "--master", "local[2]"]),
            ):
                seconds = survey_seconds(Path(tmp) / "survey.parquet", *extra)
                print(f"| {label} | {seconds:.1f} | {rows / seconds:,.0f} |", flush=True)
    print("\n| Spark verdicts (GPTBot) | URLs | seconds | URLs/s | time vs the size before |\n|---|---|---|---|---|")
    sizes = [int(s) for s in args.urls.split(",")]
    before: dict[int, tuple[int, float]] = {}
    for cores, size, seconds in spark_throughput(sizes, [int(c) for c in args.cores.split(",")]):
        growth = ""
        if cores in before:
            last_size, last_seconds = before[cores]
            growth = f"x{seconds / last_seconds:.2f} for x{size / last_size:.0f} the data"
        before[cores] = (size, seconds)
        print(f"| local[{cores}] | {size:,} | {seconds:.1f} | {size / seconds:,.0f} | {growth} |", flush=True)


if __name__ == "__main__":
    main()
