"""Where the browser's time goes in one floor or top_k step: Chromium's own counters
(Performance.getMetrics: script, layout, style recalculation, task time) and a sampling
JavaScript profile (the Profiler domain) over the steps, both through Playwright's CDP session.

The profile's self time is summed by function and by script file, so the top rows say which
library spends it (Vega's dataflow, vega-embed, React, Arrow decoding). Not a test: nothing is
asserted; ``ui_latency.py`` times the same steps.

    .venv/bin/python bench/step_profile.py [--runs 6] [--slider floor] [--top 25] [--paste 99000]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
from pathlib import Path
from typing import Any

from browser_common import (
    ALL_CHARTS_IDLE_JS,
    CHARTS_SETTLED_JS,
    WATCH_CHARTS_JS,
    CpuMeter,
    big_document,
    cpu_seconds,
    descendants,
    paste_document,
    press_and_wait_charts,
    served_page_context,
)
from machine import bench_parser, on_machine

TIMEOUT_MS = 180_000
PASTE_TIMEOUT_MS = 600_000
CHARTS = 14
COUNTERS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")


def process_kind(pid: int) -> str:
    """Chromium's process type (renderer, gpu-process, utility...), 'browser' for its main
    process, or the program's name (Playwright's node driver)."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()
    except OSError:
        return "gone"  # Chromium's children rewrite their title: one string, spaces
    kinds = [a.decode().split("=", 1)[1] for a in argv if a.startswith(b"--type=")]
    name = Path(argv[0].decode()).name if argv else "?"
    return kinds[0] if kinds else ("browser" if "chrom" in name else name)


def cpu_by_kind(server_pid: int) -> collections.Counter[str]:
    """CPU seconds of this bench's browser-side processes, by kind."""
    mine = descendants(os.getpid()) - descendants(server_pid) - {os.getpid()}
    found: collections.Counter[str] = collections.Counter()
    for pid in mine:
        found[process_kind(pid)] += cpu_seconds({pid})
    return found


def counters(cdp: Any) -> dict[str, float]:
    """Chromium's cumulative main-thread seconds by kind."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return {m["name"]: float(m["value"]) for m in metrics if m["name"] in COUNTERS}


def self_times(profile: dict[str, Any]) -> tuple[collections.Counter[str],
                                                 collections.Counter[str]]:
    """Self time (ms) by function (name and file) and by file, from a CDP CPU profile."""
    deltas = profile.get("timeDeltas", [])
    by_node = {node["id"]: node for node in profile["nodes"]}
    spent: collections.Counter[int] = collections.Counter()
    for sample, delta in zip(profile.get("samples", []), [*deltas[1:], 0], strict=False):
        spent[sample] += delta
    functions: collections.Counter[str] = collections.Counter()
    files: collections.Counter[str] = collections.Counter()
    for node_id, micros in spent.items():
        frame = by_node[node_id]["callFrame"]
        name = frame["functionName"] or "(anonymous)"
        url = frame.get("url", "").rsplit("/", 1)[-1] or "-"
        functions[f"{name}  [{url}:{frame.get('lineNumber', 0)}]"] += micros / 1000
        files[url] += micros / 1000
    return functions, files


def profile_steps(page: Any, key: str, runs: int) -> tuple[dict[str, Any], dict[str, float],
                                                           list[float]]:
    """``runs`` alternating arrow presses on slider ``key`` under the profiler."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    before = counters(cdp)
    cdp.send("Profiler.start")
    times = [press_and_wait_charts(page, key, ("ArrowRight", "ArrowLeft")[i % 2], TIMEOUT_MS)
             for i in range(runs)]
    profile = cdp.send("Profiler.stop")["profile"]
    after = counters(cdp)
    cdp.detach()
    return profile, {k: (after[k] - before[k]) / runs for k in COUNTERS}, times


def idle_baseline(page: Any, server_pid: int, seconds: float = 2.0) -> None:
    """The browser's CPU while the bench only polls (no key pressed): what the harness
    itself costs during the quiet wait that ends every step."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    kinds0 = cpu_by_kind(server_pid)
    page.evaluate(WATCH_CHARTS_JS)
    with contextlib.suppress(PlaywrightTimeout):  # the point: nothing changes, it times out
        page.wait_for_function(CHARTS_SETTLED_JS, arg=1500, polling="raf",
                               timeout=int(seconds * 1000))
    kinds = cpu_by_kind(server_pid) - kinds0
    print(f"idle, polling only, {seconds:.0f} s: " + ", ".join(
        f"{kind} {s:.3f} s" for kind, s in kinds.most_common()))


def report(key: str, runs: int, measured: tuple[dict[str, Any], dict[str, float], list[float]],
           cpu: tuple[float, float], top: int) -> None:
    profile, per_step, times = measured
    functions, files = self_times(profile)
    print(f"\n{key} step x{runs}: ms {', '.join(f'{x:.0f}' for x in times)}")
    print(f"  CPU per step from /proc: server {cpu[0]:.2f} s, browser {cpu[1]:.2f} s")
    print("  main thread per step (Performance.getMetrics): "
          + ", ".join(f"{k.removesuffix('Duration').lower()} {v:.3f} s"
                      for k, v in per_step.items()))
    total = sum(files.values()) / runs
    print(f"  JS profile: {total:.0f} ms sampled per step (idle included); self time by file:")
    for name, ms in files.most_common(8):
        print(f"    {ms / runs:7.1f} ms  {name}")
    print("  self time by function:")
    for name, ms in functions.most_common(top):
        print(f"    {ms / runs:7.1f} ms  {name[:110]}")


def main(argv: list[str] | None = None) -> None:
    found = bench_parser(__doc__)
    found.add_argument("--runs", type=int, default=6)
    found.add_argument("--slider", choices=("floor", "top_k", "both"), default="both")
    found.add_argument("--top", type=int, default=25)
    found.add_argument("--chromium", default="/usr/bin/chromium")
    found.add_argument("--paste", type=int, default=0, metavar="CHARS",
                       help="profile on a pasted document of CHARS characters (the sample "
                            "documents repeated), e.g. 99000 for issue 19's journey")
    args = found.parse_args(argv)
    if args.smoke:
        args.runs, args.top = 1, 5
    with on_machine(args.smoke):
        measure(args)


def measure(args: argparse.Namespace) -> None:
    keys = ("floor", "top_k") if args.slider == "both" else (args.slider,)
    with served_page_context(args.chromium) as (proc, url, context):
        meter = CpuMeter(proc.pid)
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(ALL_CHARTS_IDLE_JS, arg=CHARTS, polling="raf",
                               timeout=TIMEOUT_MS)
        if args.paste:
            paste_document(page, big_document(args.paste), PASTE_TIMEOUT_MS)
            page.wait_for_function(ALL_CHARTS_IDLE_JS, arg=CHARTS, polling="raf",
                                   timeout=PASTE_TIMEOUT_MS)
            for arrow in ("ArrowRight", "ArrowLeft"):  # warm: the first steps fill caches
                press_and_wait_charts(page, keys[0], arrow, TIMEOUT_MS)
        page.wait_for_timeout(500)
        idle_baseline(page, proc.pid)
        for key in keys:
            server0, browser0 = meter.read()
            kinds0 = cpu_by_kind(proc.pid)
            measured = profile_steps(page, key, args.runs)
            server1, browser1 = meter.read()
            kinds = cpu_by_kind(proc.pid) - kinds0
            cpu = ((server1 - server0) / args.runs, (browser1 - browser0) / args.runs)
            report(key, args.runs, measured, cpu, args.top)
            print("  browser CPU per step by process: " + ", ".join(
                f"{kind} {s / args.runs:.3f} s" for kind, s in kinds.most_common()))


if __name__ == "__main__":
    main()
