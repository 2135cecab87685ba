"""One pydantic model per command's ``--json`` output: what ``ragviz schema COMMAND`` prints
as JSON Schema and what every ``--json`` is validated by before it is printed (a field a
command adds without its model is a programming error, caught by the tests).

Every output starts with the same header: ``schema_version`` (``SCHEMA_VERSION``, raised when
a field changes meaning or goes away; a new optional field keeps it) and ``command``. The
commands that retrieve add the retrieval settings: the model, the chunker and its config,
the scorer spec with its reranker and rerank depth, ``expand``, ``top_k`` and ``floor``.
Parts whose keys another stage owns (a diagnosis, an index's facts, an LLM answer) are
objects with free keys. Optional fields are left out when a run has nothing to say in them.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION: Final = 1

Decision = Literal["refused", "context"]
Free = dict[str, Any]  # an object whose keys another stage's ``to_dict`` owns


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Versioned(_Out):
    """The first two fields of every output."""

    schema_version: int = Field(json_schema_extra={"const": SCHEMA_VERSION},
                                description="the version of this output's shape")
    command: str = Field(description="the command that printed it, e.g. 'eval', 'cache info'")


class ChunkerFields(_Out):
    chunker: str | None = Field(description="the chunker's label, e.g. fixed(size=120, "
                                "overlap=0); null where a command runs several (sweep)")
    config: Free | None = Field(description="the chunker and the parameters it reads")


class Settings(ChunkerFields):
    """The retrieval settings a configuration ran with."""

    scorer: str = Field(description="the scorer spec, reranker included "
                        "(cosine, bm25(stopwords=en), cosine+rerank(sentence-max))")
    reranker: str | None = Field(description="the rerank stage's model, null without one")
    rerank_depth: int | None = Field(description="chunks the reranker rescores, null without")
    expand: int = Field(description="chunks added on each side of every hit to the prompt")
    top_k: int
    floor: float = Field(description="the score floor on the scorer's scale (calibrate: the "
                         "suggested floor; the one given is floor_given)")


class ChunkingHeader(ChunkerFields, Versioned):
    model: str | None = Field(description="the embedding model, null when none was loaded")


class RetrievalHeader(Settings, ChunkingHeader):
    """The header of every command that retrieves."""


class ChunkRow(_Out):
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


class IndexChunkRow(_Out):
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


class SourceRow(_Out):
    name: str
    chars: int


class HitRow(_Out):
    index: int
    score: float
    source: str


class Metrics(BaseModel):
    """Every registered metric by name (null: no question counts for it), the counts and
    each metric's standard deviation."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, float | None] = Field(init=False)

    answerable: int
    unanswerable: int
    answerable_refused: int
    labels: dict[str, int]
    std: dict[str, float | None]


class LeftOutRow(_Out):
    line: int | None
    question: str
    excerpt: int
    why: str
    source: str | None


class Covered(_Out):
    """Which questions were evaluated, and the sentences saying why others were not."""

    questions_given: int
    questions_evaluated: int
    left_out: dict[str, int]
    left_out_rows: list[LeftOutRow]
    warnings: list[str]


class LLMRun(_Out):
    """``--llm``: the chat model (never its key), its counter and the answers' metrics."""

    model: str
    temperature: float
    max_tokens: int | None
    max_context_tokens: int | None
    token_counter: str
    metrics: Free


class LLMSide(LLMRun):
    questions: list[Free]


class CompareLLM(_Out):
    a: LLMSide
    b: LLMSide
    flips: list[Free]


class SearchQuestion(_Out):
    question: str
    scores: list[float | None] = Field(description="one per chunk, null where not scored")
    hits: list[HitRow]
    decision: Decision
    llm: Free | None = None


class Reference(_Out):
    content: str
    start_index: int | None
    end_index: int | None
    source: str


class EvalQuestion(_Out):
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


class ChunkOutput(ChunkingHeader):
    """``ragviz chunk --json``."""

    chunks: list[ChunkRow]
    sources: list[SourceRow]
    boundary_similarities: list[Free] | None = None  # the semantic chunker's
    breakpoint_threshold: float | None = None


class SearchOutput(RetrievalHeader):
    """``ragviz search --json``."""

    chunks: list[ChunkRow]
    sources: list[SourceRow]
    questions: list[SearchQuestion]
    llm: LLMRun | None = None


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


class BestScore(_Out):
    question: str
    answerable: bool | None
    best_score: float
    best_chunk: int | None
    source: str | None


class CalibrateOutput(Covered, RetrievalHeader):
    """``ragviz calibrate --json``: ``floor`` is the suggested floor."""

    floor_given: float = Field(description="the --floor given (the scale's bottom if none)")
    separable: bool
    margin: float
    lowest_answerable: float
    highest_unanswerable: float
    false_refusals: int
    false_answers: int
    cost_false_refusal: float
    cost_false_answer: float
    curve: list[Free]
    message: str
    best_scores: list[BestScore]


class ReportOutput(RetrievalHeader):
    """``ragviz report --json``: where the report went (its settings: the first
    configuration's; ``configurations`` names each one drawn)."""

    html: str
    characters: int
    configurations: list[str]


class Flip(_Out):
    index: int
    question: str
    label_a: str | None
    label_b: str | None
    refused_a: bool
    refused_b: bool
    top_holds_a: bool
    top_holds_b: bool
    direction: Literal["fixed", "broken", "changed"]


class CompareOutput(Covered, RetrievalHeader):
    """``ragviz compare --json``: the header holds A's settings, ``b_settings`` B's."""

    b_settings: Settings
    a: str
    b: str
    metrics_a: Metrics
    metrics_b: Metrics
    flips: list[Flip]
    llm: CompareLLM | None = None


class SweepRow(BaseModel):
    """One configuration of the grid with every registered metric by name."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, float | None] = Field(init=False)

    config: str
    chunker: str
    size: int | float | None
    overlap: int | float | None
    scorer: str | None = None  # the scorer spec, on a sweep with a scorer axis
    chunks: int


class SweepOutput(Covered, RetrievalHeader):
    """``ragviz sweep --json``: ``chunker`` and ``config`` are null (the rows vary them)."""

    metric: str
    best: SweepRow
    rows: list[SweepRow]


class ContextRow(_Out):
    index: int
    source: str
    start: int
    end: int
    text: str = Field(description="the chunk as sent: the source's text[start:end]")
    score: float
    rank: int = Field(description="1-based rank of the chunk for the question")


class AnswerFromRow(_Out):
    index: int = Field(description="a chunk of context")
    share: float = Field(description="the part (0-1) of the answer's distinct content words "
                         "found in the chunk, both normalised (case, accents, whitespace)")


class CandidateRow(_Out):
    source: str
    start: int
    end: int
    text: str = Field(description="the source's text[start:end]")
    score: float = Field(description="the model's cosine for the question (the mean with "
                         "the expected answer's when given)")
    chunk: int | None = Field(description="the chunk holding most of the passage")
    chunk_rank: int | None
    chunk_score: float | None
    sent: bool = Field(description="whether that chunk was in the context sent")


class ExplainOutput(RetrievalHeader):
    """``ragviz explain --json``: one ticket (a question, the bot's answer, maybe the right
    answer) explained; ``labels`` and ``explanation`` only with ``--expected``."""

    question: str
    bot_answer: str
    expected: str | None
    decision: Decision
    context: list[ContextRow]
    answer_from: list[AnswerFromRow] = Field(description="the chunks sent holding at least "
                                             "half of the answer's content words, best first; "
                                             "empty: the answer came from none of them")
    shares: list[AnswerFromRow] = Field(description="every chunk sent, best first")
    candidates: list[CandidateRow]
    summary: list[str] = Field(description="the text output's sentences")
    labels: list[str] | None = None
    explanation: str | None = None
    diagnosis: Free | None = None


class Collection(_Out):
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


class IndexOutput(Versioned):
    """``ragviz index --json``: what a production index holds (no retrieval runs)."""

    model: str | None = Field(description="the model the stored vectors were checked "
                              "against (--model), null when none was given")
    index: str
    collections: list[Collection]


class ModelUsage(_Out):
    name: str
    entries: int
    bytes: int


class CacheInfoOutput(Versioned):
    """``ragviz cache info --json`` (no retrieval runs)."""

    folder: str
    usable: bool
    entries: int
    bytes: int
    file_bytes: int
    limit_bytes: int
    models: list[ModelUsage]


class CacheClearOutput(Versioned):
    """``ragviz cache clear --json``."""

    folder: str
    entries_removed: int
    bytes_freed: int


class QuestionsUnanswerable(_Out):
    wanted: int
    kept: int
    dropped: dict[str, int] = Field(description="candidates dropped, by reason "
                                    "(answered-from-the-corpus, check-failed, repeat)")


class QuestionsOutput(Versioned):
    """``ragviz questions --json`` (the questions themselves are in the file ``out``)."""

    model: str = Field(description="the chat model that wrote them (never the key)")
    embedding_model: str | None = Field(description="the model near-duplicates and the "
                                        "unanswerable check used")
    out: str = Field(description="the questions file written")
    wanted: int
    kept: int = Field(description="answerable questions written, every excerpt verified")
    calls: int = Field(description="requests answered by the chat model")
    failed_calls: int
    drafted: int = Field(description="questions read from the model's replies")
    dropped: dict[str, int] = Field(description="drafts and replies dropped, by reason "
                                    "(not-json, malformed, no-excerpt, excerpt-not-in-file, "
                                    "repeat, near-duplicate, give-away)")
    flagged_giveaways: int = Field(description="give-aways kept with --keep-giveaways")
    passages: int = Field(description="passages the corpus was cut into")
    passage_tokens: int = Field(description="a passage's size in tokens, at most")
    tokens: dict[str, int] = Field(description="prompt and completion tokens of every call")
    cost: float | None = Field(description="the tokens at --price, null without it")
    unanswerable: QuestionsUnanswerable
    thresholds: dict[str, float] = Field(description="near_duplicate (cosine) and giveaway "
                                         "(share of the question's words in its excerpts)")
    stopped: bool = Field(description="stopped by Ctrl-C: the file holds what was kept")


class LabelEntry(_Out):
    label: str = Field(description="the label as the data names it (every JSON, every CSV)")
    name: str = Field(description="the label in the output's language")
    definition: str = Field(description="what the label says about the context sent")
    fix: str = Field(description="what to change")


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


def checked(command: str, payload: dict[str, Any] | BaseModel) -> dict[str, Any]:
    """``payload`` validated by ``command``'s model (its header stamped) and dumped as JSON
    data: the fields in the model's order, the optional ones a run left out still out."""
    data = payload.model_dump(exclude_unset=True) if isinstance(payload, BaseModel) else payload
    model = OUTPUTS[command].model_validate(
        {**data, "schema_version": SCHEMA_VERSION, "command": command})
    return model.model_dump(mode="json", exclude_unset=True)


def schema(command: str) -> dict[str, Any]:
    """``command``'s JSON Schema (draft 2020-12)."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            **OUTPUTS[command].model_json_schema()}
