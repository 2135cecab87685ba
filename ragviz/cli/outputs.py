"""Every command's ``--json`` output, defined once: plain dataclasses (and, where a result
holds its metrics by name, ``TypedDict``s) from which ``checked`` derives the JSON printed
and ``schema`` the JSON Schema ``ragviz schema COMMAND`` publishes, both through pydantic's
``TypeAdapter``. pydantic is imported by those two functions only: a text run never loads it.

A part that is a result of the pipeline is that result's own dataclass (``CacheInfo`` with
its ``ModelUsage``, ``LabelEntry``, ``Calibration``, ``Flip``), not a copy of it. Every
output starts with the same header: ``schema_version`` (``SCHEMA_VERSION``, raised when a
field changes meaning or goes away; a new optional field keeps it) and ``command``. The
commands that retrieve add the retrieval settings. Parts whose keys another stage owns (a
diagnosis, an index's facts, an LLM answer) are objects with free keys. Optional fields
(default None) are left out when a run has nothing to say.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Final, Literal, NotRequired

from typing_extensions import TypedDict

from ragviz.embedding.disk_cache import CacheInfo
from ragviz.evaluation import calibration, results
from ragviz.evaluation.explain import AnswerSource, Candidate, SentChunk
from ragviz.present.label_words import LabelEntry

if TYPE_CHECKING:
    from pydantic import TypeAdapter

SCHEMA_VERSION: Final = 1

Decision = Literal["refused", "context"]
Free = dict[str, Any]  # an object whose keys another stage owns
# extra keys refused (the parts inside an output are held to it too); a field's description
# is its ``metadata["description"]``, which pydantic reads in subclasses too
_CONFIG: Final = {"extra": "forbid"}


def fields_of(item: Any) -> dict[str, Any]:
    """A dataclass's fields by name, one level deep (nested results stay objects)."""
    return {f.name: getattr(item, f.name) for f in fields(item)}


def data(item: Any) -> dict[str, Any]:
    """A part of an output as the data a command adds to and prints: its optional fields
    with nothing to say (None) left out."""
    optional = {f.name for f in fields(item) if f.default is None}
    return {name: value for name, value in asdict(item).items()
            if value is not None or name not in optional}


@dataclass(frozen=True, kw_only=True)
class Versioned:
    """The first two fields of every output."""

    __pydantic_config__ = _CONFIG

    schema_version: Literal[1] = field(metadata={  # SCHEMA_VERSION
        "description": "the version of this output's shape"})
    command: str = field(metadata={
        "description": "the command that printed it, e.g. 'eval', 'cache info'"})


@dataclass(frozen=True, kw_only=True)
class ChunkerFields:
    __pydantic_config__ = _CONFIG

    chunker: str | None = field(metadata={
        "description": "the chunker's label, e.g. fixed(size=120, overlap=0); null where a "
                       "command runs several (sweep)"})
    config: Free | None = field(metadata={"description": "the chunker and the parameters it reads"})


@dataclass(frozen=True, kw_only=True)
class Settings(ChunkerFields):
    """The retrieval settings a configuration ran with."""

    scorer: str = field(metadata={
        "description": "the scorer spec, reranker included (cosine, bm25(stopwords=en), "
                       "cosine+rerank(sentence-max))"})
    reranker: str | None = field(metadata={
        "description": "the rerank stage's model, null without one"})
    rerank_depth: int | None = field(metadata={
        "description": "chunks the reranker rescores, null without"})
    expand: int = field(metadata={
        "description": "chunks added on each side of every hit to the prompt"})
    top_k: int
    floor: float = field(metadata={
        "description": "the score floor on the scorer's scale (calibrate: the suggested floor; "
                       "the one given is floor_given)"})


@dataclass(frozen=True, kw_only=True)
class ChunkingHeader(ChunkerFields, Versioned):
    model: str | None = field(metadata={
        "description": "the embedding model, null when none was loaded"})


@dataclass(frozen=True, kw_only=True)
class RetrievalHeader(Settings, ChunkingHeader):
    """The header of every command that retrieves."""


@dataclass(frozen=True, kw_only=True)
class ChunkRow:
    index: int
    start: int
    end: int
    text: str
    chars: int
    over_size: bool
    heading_path: list[str]
    context_prefix: str
    source: str
    tokens: int | None = None  # chunk --model: the model's token count


@dataclass(frozen=True, kw_only=True)
class IndexChunkRow:
    """A chunk of a production index (``eval --index``): offsets null where not placed."""

    index: int
    id: str | int | None
    source: str | None
    start: int | None
    end: int | None
    text: str | None
    labels: list[str]
    vector_agreement: float | None
    stale_in: str | None = None
    explanation: str | None = None


@dataclass(frozen=True, kw_only=True)
class SourceRow:
    name: str
    chars: int


@dataclass(frozen=True, kw_only=True)
class HitRow:
    index: int
    score: float
    source: str


class Metrics(TypedDict, extra_items=float | None):  # type: ignore[call-arg]
    """Every registered metric by name (null: no question counts for it), the counts and
    each metric's standard deviation."""

    answerable: int
    unanswerable: int
    answerable_refused: int
    labels: dict[str, int]
    std: dict[str, float | None]


Metrics.__pydantic_config__ = {"extra": "allow"}  # type: ignore[attr-defined]  # by name


@dataclass(frozen=True, kw_only=True)
class LeftOutRow:
    line: int | None
    question: str
    excerpt: int
    why: str
    source: str | None


@dataclass(frozen=True, kw_only=True)
class Covered:
    """Which questions were evaluated, and the sentences saying why others were not."""

    __pydantic_config__ = _CONFIG

    questions_given: int
    questions_evaluated: int
    left_out: dict[str, int]
    left_out_rows: list[LeftOutRow]
    warnings: list[str]


@dataclass(frozen=True, kw_only=True)
class LLMRun:
    """``--llm``: the chat model (never its key), its counter and the answers' metrics."""

    model: str
    temperature: float
    max_tokens: int | None
    max_context_tokens: int | None
    token_counter: str
    metrics: Free


@dataclass(frozen=True, kw_only=True)
class LLMSide(LLMRun):
    questions: list[Free]


@dataclass(frozen=True, kw_only=True)
class CompareLLM:
    a: LLMSide
    b: LLMSide
    flips: list[Free]


@dataclass(frozen=True, kw_only=True)
class SearchQuestion:
    question: str
    scores: list[float | None] = field(metadata={
        "description": "one per chunk, null where not scored"})
    hits: list[HitRow]
    decision: Decision
    llm: Free | None = None


@dataclass(frozen=True, kw_only=True)
class Reference:
    content: str
    start_index: int | None
    end_index: int | None
    source: str


@dataclass(frozen=True, kw_only=True)
class EvalQuestion:
    question: str
    answer: str
    answerable: bool | None
    decision: Decision
    best_score: float | None
    hits: list[HitRow]
    labels: list[str]
    explanation: str
    diagnosis: Free | None
    recall: float | None
    precision: float | None
    iou: float | None
    precision_omega: float | None
    excerpts: int | None = None
    missed_excerpts: list[int] | None = None
    references: list[Reference] | None = None
    expanded: list[int] | None = None  # --expand: the chunks added to the prompt
    stale_chunks: list[int] | None = None  # eval --index
    duplicate_crowding: list[Any] | None = None  # eval --index
    llm: Free | None = None


@dataclass(frozen=True, kw_only=True)
class ChunkOutput(ChunkingHeader):
    """``ragviz chunk --json``."""

    chunks: list[ChunkRow]
    sources: list[SourceRow]
    boundary_similarities: list[Free] | None = None  # the semantic chunker's
    breakpoint_threshold: float | None = None


@dataclass(frozen=True, kw_only=True)
class SearchOutput(RetrievalHeader):
    """``ragviz search --json``."""

    chunks: list[ChunkRow]
    sources: list[SourceRow]
    questions: list[SearchQuestion]
    llm: LLMRun | None = None


@dataclass(frozen=True, kw_only=True)
class EvalOutput(Covered, RetrievalHeader):
    """``ragviz eval --json``."""

    chunks: int
    chunk_list: list[ChunkRow | IndexChunkRow]
    sources: list[SourceRow]
    metrics: Metrics
    questions: list[EvalQuestion]
    per_file: dict[str, Metrics]
    also: list[Free] | None = None  # --also: each other scorer's study
    index: Free | None = None  # --index: the collection, its mode and problems
    token_metrics_over: int | None = None  # --index
    llm: LLMRun | None = None


@dataclass(frozen=True, kw_only=True)
class BestScore:
    question: str
    answerable: bool | None
    best_score: float
    best_chunk: int | None
    source: str | None


@dataclass(frozen=True, kw_only=True)
class FloorGiven:
    floor_given: float = field(metadata={
        "description": "the --floor given (the scale's bottom if none)"})


@dataclass(frozen=True, kw_only=True)
class CalibrateOutput(calibration.Calibration, FloorGiven, Covered, RetrievalHeader):
    """``ragviz calibrate --json``: ``floor`` is the suggested floor."""

    # the fields of ``Calibration`` (their JSON), the curve's points as objects
    curve: list[Free]  # type: ignore[assignment]
    message: str
    best_scores: list[BestScore]


@dataclass(frozen=True, kw_only=True)
class ReportOutput(RetrievalHeader):
    """``ragviz report --json``: where the report went (its settings: the first
    configuration's; ``configurations`` names each one drawn)."""

    html: str
    characters: int
    configurations: list[str]


@dataclass(frozen=True)
class Flip(results.Flip):
    # a flip of ``compare``: the question as its text; the direction given (and checked
    # again by ``__post_init__``)
    question: str  # type: ignore[assignment]
    direction: results.Direction


@dataclass(frozen=True, kw_only=True)
class CompareOutput(Covered, RetrievalHeader):
    """``ragviz compare --json``: the header holds A's settings, ``b_settings`` B's."""

    b_settings: Settings
    a: str
    b: str
    metrics_a: Metrics
    metrics_b: Metrics
    flips: list[Flip]
    llm: CompareLLM | None = None


class SweepRow(TypedDict, extra_items=float | None):  # type: ignore[call-arg]
    """One configuration of the grid with every registered metric by name."""

    config: str
    chunker: str
    size: int | float | None
    overlap: int | float | None
    scorer: NotRequired[str | None]  # the scorer spec, on a sweep with a scorer axis
    chunks: int


SweepRow.__pydantic_config__ = {"extra": "allow"}  # type: ignore[attr-defined]  # by name


@dataclass(frozen=True, kw_only=True)
class SweepOutput(Covered, RetrievalHeader):
    """``ragviz sweep --json``: ``chunker`` and ``config`` are null (the rows vary them)."""

    metric: str
    best: SweepRow
    rows: list[SweepRow]


# explain's results as its JSON names them (each score rounded by the command)
class ContextRow(SentChunk):
    pass


class AnswerFromRow(AnswerSource):
    pass


class CandidateRow(Candidate):
    pass


@dataclass(frozen=True, kw_only=True)
class ExplainOutput(RetrievalHeader):
    """``ragviz explain --json``: one ticket (a question, the bot's answer, maybe the right
    answer) explained; ``labels`` and ``explanation`` only with ``--expected``."""

    question: str
    bot_answer: str
    expected: str | None
    decision: Decision
    context: list[ContextRow]
    answer_from: list[AnswerFromRow] = field(metadata={
        "description": "the chunks sent holding at least half of the answer's content words, best"
                       " first; empty: the answer came from none of them"})
    shares: list[AnswerFromRow] = field(metadata={"description": "every chunk sent, best first"})
    candidates: list[CandidateRow]
    summary: list[str] = field(metadata={"description": "the text output's sentences"})
    labels: list[str] | None = None
    explanation: str | None = None
    diagnosis: Free | None = None


@dataclass(frozen=True, kw_only=True)
class Collection:
    """One collection of ``ragviz index``: only its count and dimension when it is empty
    or past the in-memory limit (``loaded`` false)."""

    collection: str
    count: int
    dimension: int | None
    empty: bool
    loaded: bool
    retrieves: bool
    chunk_chars: dict[str, int] | None = None
    problems: list[str] | None = None
    duplicate_groups: int | None = None
    duplicate_chunks: int | None = None
    near_duplicates_searched: bool | None = None
    model: str | None = None
    vector_check: str | None = None
    vector_mismatch_share: float | None = None


@dataclass(frozen=True, kw_only=True)
class IndexOutput(Versioned):
    """``ragviz index --json``: what a production index holds (no retrieval runs)."""

    model: str | None = field(metadata={
        "description": "the model the stored vectors were checked against (--model), null when "
                       "none was given"})
    index: str
    collections: list[Collection]


@dataclass(frozen=True, kw_only=True)
class CacheInfoOutput(CacheInfo, Versioned):
    """``ragviz cache info --json`` (no retrieval runs)."""


@dataclass(frozen=True, kw_only=True)
class CacheClearOutput(Versioned):
    """``ragviz cache clear --json``."""

    folder: str
    entries_removed: int
    bytes_freed: int


@dataclass(frozen=True, kw_only=True)
class QuestionsUnanswerable:
    wanted: int
    kept: int
    dropped: dict[str, int] = field(metadata={
        "description": "candidates dropped, by reason (answered-from-the-corpus, check-failed, "
                       "repeat)"})


@dataclass(frozen=True, kw_only=True)
class QuestionsOutput(Versioned):
    """``ragviz questions --json`` (the questions themselves are in the file ``out``)."""

    model: str = field(metadata={"description": "the chat model that wrote them (never the key)"})
    embedding_model: str | None = field(metadata={
        "description": "the model near-duplicates and the unanswerable check used"})
    out: str = field(metadata={"description": "the questions file written"})
    wanted: int
    kept: int = field(metadata={
        "description": "answerable questions written, every excerpt verified"})
    calls: int = field(metadata={"description": "requests answered by the chat model"})
    failed_calls: int
    drafted: int = field(metadata={"description": "questions read from the model's replies"})
    dropped: dict[str, int] = field(metadata={
        "description": "drafts and replies dropped, by reason (not-json, malformed, no-excerpt, "
                       "excerpt-not-in-file, repeat, near-duplicate, give-away)"})
    flagged_giveaways: int = field(metadata={
        "description": "give-aways kept with --keep-giveaways"})
    passages: int = field(metadata={"description": "passages the corpus was cut into"})
    passage_tokens: int = field(metadata={"description": "a passage's size in tokens, at most"})
    tokens: dict[str, int] = field(metadata={
        "description": "prompt and completion tokens of every call"})
    cost: float | None = field(metadata={"description": "the tokens at --price, null without it"})
    unanswerable: QuestionsUnanswerable
    thresholds: dict[str, float] = field(metadata={
        "description": "near_duplicate (cosine) and giveaway (share of the question's words in "
                       "its excerpts)"})
    stopped: bool = field(metadata={
        "description": "stopped by Ctrl-C: the file holds what was kept"})


@dataclass(frozen=True, kw_only=True)
class LabelsOutput(Versioned):
    """``ragviz labels --json``: the glossary, in ``language``."""

    language: str
    labels: list[LabelEntry]


OUTPUTS: Final[dict[str, type[Versioned]]] = {
    "chunk": ChunkOutput, "search": SearchOutput, "eval": EvalOutput,
    "calibrate": CalibrateOutput, "report": ReportOutput, "explain": ExplainOutput,
    "compare": CompareOutput,
    "sweep": SweepOutput, "index": IndexOutput, "cache info": CacheInfoOutput,
    "cache clear": CacheClearOutput, "questions": QuestionsOutput, "labels": LabelsOutput,
}


@functools.cache
def _adapter(command: str) -> TypeAdapter[Any]:
    from pydantic import TypeAdapter

    return TypeAdapter(OUTPUTS[command])


def checked(command: str, payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` validated by ``command``'s output (its header stamped) and dumped as JSON
    data: the fields in the definition's order, an optional field the payload left out still
    out (one it gave as None stays null). Raises pydantic's ``ValidationError`` on a field the
    definition does not have."""
    adapter = _adapter(command)
    given = {**payload, "schema_version": SCHEMA_VERSION, "command": command}
    out: dict[str, Any] = _as_given(
        adapter.dump_python(adapter.validate_python(given), mode="json"), given)
    return out


def _as_given(dumped: Any, given: Any) -> Any:
    """``dumped`` with only the keys ``given`` has, where ``given`` is a dict (a result
    given as a dataclass has every field)."""
    if isinstance(given, dict) and isinstance(dumped, dict):
        return {key: _as_given(value, given[key]) for key, value in dumped.items()
                if key in given}
    if isinstance(given, list | tuple) and isinstance(dumped, list):
        return [_as_given(value, item) for value, item in zip(dumped, given, strict=True)]
    return dumped


def schema(command: str) -> dict[str, Any]:
    """``command``'s JSON Schema (draft 2020-12)."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            **_adapter(command).json_schema()}
