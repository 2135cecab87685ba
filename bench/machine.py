"""What every benchmark prints beside its figures: the command, the date, the machine's core
count and its load average before and after the run.

The benchmarks run on small machines that are often shared: a figure without the load it was
measured under cannot be compared with another run, so the load is printed by the bench itself
rather than remembered by whoever copies the figure.

``--smoke`` (every bench has it) makes one tiny run of every code path, so CI sees a missing
import or a renamed widget; its figures mean nothing and are labelled so.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import shlex
import sys
import time
from collections.abc import Iterator


def load_average() -> str:
    """The 1, 5 and 15-minute load averages, as ``uptime`` shows them."""
    return " / ".join(f"{value:.2f}" for value in os.getloadavg())


def bench_parser(description: str | None) -> argparse.ArgumentParser:
    """An argument parser with the ``--smoke`` flag every bench shares."""
    found = argparse.ArgumentParser(description=(description or "").split("\n\n")[0])
    found.add_argument("--smoke", action="store_true",
                       help="one tiny run of every code path (CI); the figures mean nothing")
    return found


@contextlib.contextmanager
def on_machine(smoke: bool = False) -> Iterator[None]:
    """Print the command, date, cores and load before the bench's figures, and the load after."""
    now = datetime.datetime.now(datetime.UTC)
    command = shlex.join(["python", *sys.argv])
    print(f"$ {command}", flush=True)
    print(f"machine: {os.cpu_count()} cores, {now:%Y-%m-%d %H:%M} UTC, load average before"
          f" {load_average()} (1/5/15 min)" + ("  [smoke run: figures mean nothing]"
                                              if smoke else ""), flush=True)
    began = time.perf_counter()
    try:
        yield
    finally:
        print(f"machine: load average after {load_average()} (1/5/15 min),"
              f" {time.perf_counter() - began:.0f} s", flush=True)
