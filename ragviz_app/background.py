"""While the user is idle, embed the chunks of the slider positions next to the one they
last moved (one step down, one step up), so the next step is served from the cache.

One job per session (``ss["_precompute"]``), in a thread that only fills the embedder's
caches (``ragviz_app.jobs.Precompute``: no st.* call from the thread). Every run stops
it first (``stop``), and waits for the batch in flight before embedding anything itself
(``wait_stopped``); a finished run starts the next one (``after_run``). Set
RAGVIZ_PRECOMPUTE=0 to switch it off.
"""

from __future__ import annotations

import os
from typing import Any

from ragviz.chunking import ChunkerConfig
from ragviz_app import app_state as state
from ragviz_app.common import SIDES, ss
from ragviz_app.jobs import DEFAULT_IDLE_SECONDS, Precompute, neighbour_values

ENABLED = os.environ.get("RAGVIZ_PRECOMPUTE", "1").strip().lower() not in {"0", "false", "no"}
IDLE_SECONDS = DEFAULT_IDLE_SECONDS
WAIT_SECONDS = 10.0  # longest a run waits for the background batch in flight
JOB_KEY = "_precompute"
SEEN_KEY = "_precompute_seen"  # each side's configuration at the end of the last run
MOVED_KEY = "_precompute_moved"  # (side, parameter) of the slider moved last


def stop() -> None:
    """Ask this session's background job to stop at its next batch boundary."""
    job = ss.get(JOB_KEY)
    if isinstance(job, Precompute):
        job.cancel()


def wait_stopped() -> None:
    """Stop the background job and wait for its batch in flight, so this run's embedding
    does not share the model with it."""
    job = ss.get(JOB_KEY)
    if isinstance(job, Precompute):
        job.cancel()
        job.join(WAIT_SECONDS)


def moved_slider(configs: dict[str, ChunkerConfig | None], n_chars: int) -> None:
    """Remember which slider changed since the last finished run (one side, one parameter
    of the same chunker); a new chunker forgets it."""
    seen: dict[str, ChunkerConfig | None] = ss.get(SEEN_KEY, {})
    for side in SIDES:
        before, now = seen.get(side), configs.get(side)
        if before is None or now is None or before == now:
            continue
        if before.chunker != now.chunker:
            ss[MOVED_KEY] = None
            continue
        changed = [spec.name for spec in state.param_specs(now.chunker, n_chars)
                   if before.get(spec.name) != now.get(spec.name)]
        if changed:
            ss[MOVED_KEY] = (side, changed[0])
    ss[SEEN_KEY] = dict(configs)


def neighbours(side: str, name: str, config: ChunkerConfig, n_chars: int) -> list[ChunkerConfig]:
    """``config`` with its ``name`` slider one step down and one step up (inside the slider)."""
    specs = state.param_specs(config.chunker, n_chars)
    spec = next((s for s in specs if s.name == name), None)
    value = config.get(name)
    if spec is None or value is None:
        return []
    values: dict[str, Any] = {s.name: config.get(s.name) for s in specs}
    modes = state.semantic_modes(config.chunker)
    if modes:
        values["mode"] = ss.get(f"{side}_mode", modes[0])
    out = []
    for moved in neighbour_values(float(value), spec.low, spec.high, spec.step, spec.integer):
        candidate = state.config_from_values(config.chunker, {**values, name: moved}, n_chars)
        if candidate != config:
            out.append(candidate)
    return out


def after_run(document: Any, models: dict[str, Any],
              configs: dict[str, ChunkerConfig | None], n_chars: int) -> Precompute | None:
    """At the end of a finished run: note the slider moved and start filling the cache for
    its neighbouring positions (None when there is nothing to do or it is switched off)."""
    moved_slider(configs, n_chars)
    moved = ss.get(MOVED_KEY)
    if not ENABLED or document is None or moved is None:
        return None
    side, name = moved
    config = configs.get(side)
    if config is None:
        return None
    targets = neighbours(side, name, config, n_chars)
    if not targets or _already_filled(document, targets, models[side]):
        return None
    job = Precompute(document, targets, models[side], IDLE_SECONDS).start()
    ss[JOB_KEY] = job
    return job


def _already_filled(document: Any, targets: list[ChunkerConfig], model: Any) -> bool:
    """True when the last job filled exactly these positions for this document and model
    (a floor or top_k move then starts no thread that would only re-chunk)."""
    job = ss.get(JOB_KEY)
    return (isinstance(job, Precompute) and not job.running and job.finished == targets
            and job.embedder is model and job.document == document)
