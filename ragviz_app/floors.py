"""The score floor per model and scale: one floor while A and B use the same model and
scorer scale, one per side when they differ (a floor calibrated on one model, or on cosine's
scale, is meaningless on another), and the model each floor was set on, so a floor left over
from another model says so.
"""

from __future__ import annotations

from ragviz_app import app_state as state
from ragviz_app.common import SIDES, scale_of, scorer_name, ss
from ragviz_app.models import side_models

SHARED = "floor"
OWN_B = "floor_b"
_SET_ON = "_floor_model"  # floor key -> the model the floor was set on


def separate() -> bool:
    """True when A and B use different models or scorers (another scale, or scores spread
    otherwise: a reranker's best sentence), so each needs its own floor."""
    models = side_models()
    return models["a"] != models["b"] or scorer_name("a") != scorer_name("b")


def floor_key(side: str) -> str:
    """The session key of the floor ``side`` uses."""
    return OWN_B if side == "b" and separate() else SHARED


def floor_keys() -> dict[str, str]:
    """The floors on screen, each with the side whose analysis calibrates it (B for the
    shared one, as the suggested floor always was)."""
    return {"a": SHARED, "b": OWN_B} if separate() else {"b": SHARED}


def floor_of(side: str) -> float:
    return float(ss.get(floor_key(side), 0.0))


def record(key: str, model: str) -> None:
    """Remember which model the floor under ``key`` was set on."""
    ss.setdefault(_SET_ON, {})[key] = model


def set_floor(value: float, side: str = "b") -> None:
    """Apply a floor (a suggestion, a recalibration) to ``side``'s floor, on its model."""
    key = floor_key(side)
    ss[key] = state.slider_floor(value, scale_of(None, side))
    record(key, side_models()[side])


def on_floor_moved(key: str, side: str) -> None:
    """A floor moved by hand belongs to the model in use."""
    record(key, side_models()[side])


def set_on(key: str) -> str | None:
    model = ss.get(_SET_ON, {}).get(key)
    return None if model is None else str(model)


def stale(side: str) -> str | None:
    """The other model ``side``'s floor was set on, or None when it was set on this one."""
    key = floor_key(side)
    model = set_on(key)
    if model is None and key in ss:
        record(key, side_models()[side])  # a floor nobody has spoken for: this model's
        return None
    return model if model is not None and model != side_models()[side] else None


def ensure() -> None:
    """When B gets its own model, its floor starts as the shared one and keeps saying
    which model that was set on (so the page can offer to recalibrate)."""
    if separate() and OWN_B not in ss and SHARED in ss:
        ss[OWN_B] = ss[SHARED]
        if set_on(SHARED) is not None:
            record(OWN_B, str(set_on(SHARED)))


def missing() -> list[str]:
    """The sides whose floor does not exist yet (a first visit, a link without one)."""
    return [side for side in SIDES if floor_key(side) not in ss]
