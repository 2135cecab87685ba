"""The bundled sample documents, read from ``sample_docs/samples.json``.

In a checkout that is the repository's top-level ``sample_docs/``; in an installed wheel the
same folder ships inside the package as ``ragviz/sample_docs`` (see ``pyproject.toml``), found
through ``importlib.resources``, so the samples work without the repository.

Each sample is a document with its labelled questions and a demonstration: two chunker
configurations to compare on a named model, and the expected outcome written as a short
expression (e.g. ``hit_at_1(B) > hit_at_1(A)``) that the tests check on the real model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ragviz.chunking import ChunkerConfig
from ragviz.questions import LabelledQuestion, parse_questions_csv

MANIFEST = "samples.json"
CHECKOUT_DIR = Path(__file__).resolve().parent.parent / "sample_docs"


def packaged_dir() -> Path:
    """Where an installed wheel keeps the samples (``ragviz/sample_docs``)."""
    return Path(str(resources.files("ragviz").joinpath("sample_docs")))


def samples_dir() -> Path:
    """The checkout's ``sample_docs/`` when ragviz runs from the repository, else the copy
    installed with the package."""
    return CHECKOUT_DIR if (CHECKOUT_DIR / MANIFEST).is_file() else packaged_dir()


SAMPLES_DIR = samples_dir()

_REQUIRED: tuple[str, ...] = (
    "name",
    "file",
    "questions",
    "language",
    "title_en",
    "title_pt",
    "demonstrates_en",
    "demonstrates_pt",
    "model",
    "compare",
    "expect",
)


@dataclass(frozen=True)
class Sample:
    """One sample document and the demonstration it carries."""

    name: str
    file: str
    questions_file: str
    language: str
    title_en: str
    title_pt: str
    demonstrates_en: str
    demonstrates_pt: str
    model: str
    compare: tuple[dict[str, Any], dict[str, Any]]
    expect: str
    directory: Path = SAMPLES_DIR

    @property
    def path(self) -> Path:
        return self.directory / self.file

    @property
    def questions_path(self) -> Path:
        return self.directory / self.questions_file

    def document(self) -> str:
        """The document text, exactly as stored."""
        return self.path.read_text(encoding="utf-8")

    def questions(self) -> list[LabelledQuestion]:
        """The labelled questions (``question,answer,answerable``)."""
        return parse_questions_csv(self.questions_path.read_text(encoding="utf-8"))

    def configs(self) -> tuple[ChunkerConfig, ChunkerConfig]:
        """Configurations A and B of the demonstration."""
        first, second = self.compare
        return ChunkerConfig.from_dict(first), ChunkerConfig.from_dict(second)

    def title(self, language: str = "en") -> str:
        return self.title_pt if language == "pt" else self.title_en

    def demonstrates(self, language: str = "en") -> str:
        return self.demonstrates_pt if language == "pt" else self.demonstrates_en


def _sample(entry: Any, index: int, directory: Path) -> Sample:
    if not isinstance(entry, dict):
        raise ValueError(f"{MANIFEST}: entry {index} must be an object, got {entry!r}")
    missing = [key for key in _REQUIRED if key not in entry]
    if missing:
        raise ValueError(f"{MANIFEST}: entry {index} lacks {', '.join(missing)}")
    compare = entry["compare"]
    if (
        not isinstance(compare, list)
        or len(compare) != 2
        or not all(isinstance(c, dict) for c in compare)
    ):
        raise ValueError(
            f"{MANIFEST}: entry {index} ({entry['name']}): compare must be a list of two "
            "chunker settings"
        )
    texts = {key: entry[key] for key in _REQUIRED if key != "compare"}
    for key, value in texts.items():
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{MANIFEST}: entry {index}: {key} must be a non-empty string")
    return Sample(
        name=texts["name"],
        file=texts["file"],
        questions_file=texts["questions"],
        language=texts["language"],
        title_en=texts["title_en"],
        title_pt=texts["title_pt"],
        demonstrates_en=texts["demonstrates_en"],
        demonstrates_pt=texts["demonstrates_pt"],
        model=texts["model"],
        compare=(dict(compare[0]), dict(compare[1])),
        expect=texts["expect"],
        directory=directory,
    )


def load_samples(directory: Path = SAMPLES_DIR) -> list[Sample]:
    """Every sample in the manifest, in manifest order (the default sample first)."""
    data = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{MANIFEST} must hold a list of samples")
    return [_sample(entry, i, directory) for i, entry in enumerate(data)]


def get_sample(name: str, directory: Path = SAMPLES_DIR) -> Sample:
    """The sample called ``name`` (its manifest name or its file name)."""
    for sample in load_samples(directory):
        if name in (sample.name, sample.file):
            return sample
    raise KeyError(f"no sample called {name!r}")
