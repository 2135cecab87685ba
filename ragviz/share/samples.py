"""The bundled sample documents, read from ``sample_docs/samples.json``.

Each sample is a document (``"file"``) or a small knowledge base of several files
(``"files"``, loaded as a corpus) with its labelled questions and a demonstration: two
chunker configurations to compare on a named model, and the expected outcome written as a
short expression (e.g. ``hit_at_1(B) > hit_at_1(A)``) that the tests check on the real
model. ``load_samples()`` lists the single-document samples (what the explorer offers
today); ``load_samples(corpora=True)`` adds the multi-file ones.

In a checkout that is the repository's top-level ``sample_docs/``; in an installed wheel the
same folder ships inside the package as ``ragviz/sample_docs`` (see ``pyproject.toml``), found
through ``importlib.resources``, so the samples work without the repository.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ragviz.chunking import ChunkerConfig
from ragviz.errors import UserError
from ragviz.i18n import Message
from ragviz.inputs.corpus import Corpus, load_paths
from ragviz.inputs.questions import LabelledQuestion, parse_questions_csv

MANIFEST = "samples.json"
# The folder that holds the ragviz package (found by name, so it does not depend on where
# this module sits inside the package).
CHECKOUT_DIR = Path(str(resources.files("ragviz"))).resolve().parent / "sample_docs"


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
    "questions",
    "language",
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
    model: str
    compare: tuple[dict[str, Any], dict[str, Any]]
    expect: str
    directory: Path = SAMPLES_DIR
    files: tuple[str, ...] = ()  # a multi-file sample; ``file`` is then their common folder

    @property
    def is_corpus(self) -> bool:
        return bool(self.files)

    @property
    def path(self) -> Path:
        return self.directory / self.file

    def corpus(self) -> Corpus:
        """Every file of the sample as a corpus (one source for a single document)."""
        names = self.files or (self.file,)
        return load_paths([str(self.directory / name) for name in names])

    @property
    def questions_path(self) -> Path:
        return self.directory / self.questions_file

    def document(self) -> str:
        """The document text, exactly as stored (a multi-file sample has no one document)."""
        if self.is_corpus:
            raise ValueError(f"the sample {self.name} has several files: use corpus()")
        return self.path.read_text(encoding="utf-8")

    def questions(self) -> list[LabelledQuestion]:
        """The labelled questions (``question,answer,answerable``)."""
        return parse_questions_csv(self.questions_path.read_text(encoding="utf-8"))

    def configs(self) -> tuple[ChunkerConfig, ChunkerConfig]:
        """Configurations A and B of the demonstration."""
        first, second = self.compare
        return ChunkerConfig.from_dict(first), ChunkerConfig.from_dict(second)

    @property
    def title(self) -> Message:
        """The sample's title (``sample.<name>.title`` in the catalogs)."""
        return Message(f"sample.{self.name}.title")

    @property
    def demonstrates(self) -> Message:
        """What the sample demonstrates (``sample.<name>.demonstrates``)."""
        return Message(f"sample.{self.name}.demonstrates")


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
    file, files = _files(entry, index)
    return Sample(
        name=texts["name"],
        file=file,
        files=files,
        questions_file=texts["questions"],
        language=texts["language"],
        model=texts["model"],
        compare=(dict(compare[0]), dict(compare[1])),
        expect=texts["expect"],
        directory=directory,
    )


def _files(entry: dict[str, Any], index: int) -> tuple[str, tuple[str, ...]]:
    """``file`` for one document, or ``files`` (their common folder becomes ``file``)."""
    file, files = entry.get("file"), entry.get("files")
    if (file is None) == (files is None):
        raise ValueError(f"{MANIFEST}: entry {index} needs either file or files")
    if file is not None:
        if not isinstance(file, str) or not file.strip():
            raise ValueError(f"{MANIFEST}: entry {index}: file must be a non-empty string")
        return file, ()
    if (not isinstance(files, list) or len(files) < 2
            or not all(isinstance(f, str) and f.strip() for f in files)):
        raise ValueError(f"{MANIFEST}: entry {index}: files must list two or more file names")
    folders = {str(Path(f).parent) for f in files}
    return (folders.pop() if len(folders) == 1 else "."), tuple(files)


def load_samples(directory: Path = SAMPLES_DIR, corpora: bool = False) -> list[Sample]:
    """The samples in the manifest, in manifest order (the default sample first); the
    multi-file ones only with ``corpora``."""
    data = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{MANIFEST} must hold a list of samples")
    samples = [_sample(entry, i, directory) for i, entry in enumerate(data)]
    return [s for s in samples if corpora or not s.is_corpus]


def get_sample(name: str, directory: Path = SAMPLES_DIR) -> Sample:
    """The sample called ``name`` (its manifest name or its file name), multi-file included."""
    for sample in load_samples(directory, corpora=True):
        if name in (sample.name, sample.file):
            return sample
    raise KeyError(f"no sample called {name!r}")


def find_sample(name: str) -> Sample:
    """A sample the user named (``sample:NAME``), or one sentence listing the samples there
    are: the lookup ``ragviz.inputs.reading`` reads a sample's files through."""
    try:
        return get_sample(name)
    except KeyError:
        names = ", ".join(s.name for s in load_samples(corpora=True))
        raise UserError(key="cli.no_sample", name=repr(name), names=names) from None
