"""Every error a user can meet, in one place under every stage: each carries a catalog key
and values (``KeyedError``), so the CLI and the app say it in the user's language, and
``str()`` is English. Stages raise these; only the CLI's output and the app put them into
words.
"""

from __future__ import annotations

import errno

from ragviz.i18n import KeyedError, Message


class InputError(KeyedError, ValueError):
    """Input the user can fix; the message is one sentence that says what to change, given
    as a key and values in ``ragviz.i18n`` (``KeyedError``) so each display says it in its language.
    """


class ConversionError(InputError):
    """A file that cannot become text: one sentence naming the file and the reason, whose
    catalog key (``convert.<reason>``) and values are said in the reader's language."""

    def __init__(self, name: str, kind: str, reason: str, **values: object) -> None:
        super().__init__(key="convert.could_not_read", name=name,
                         reason=Message(f"convert.{reason}", values))
        self.name = name
        self.kind = kind


class IndexInputError(InputError):
    """An index that cannot be read as asked; one sentence for the user by catalog key
    (``idx.…`` or ``index.…``), said in the page's language where it is shown."""


class IndexLimitError(IndexInputError):
    """A limit passed: the whole file is refused (a damaged record is only left out)."""


class RerankAPIError(InputError):
    """A rerank API fault, said in one sentence (never the key)."""


class UserError(InputError):
    """A mistake the user can fix on the command line; a key and values (``KeyedError``), said
    in ``--lang`` by ``main``."""


class ModelLoadError(KeyedError, RuntimeError):
    """A model could not be loaded; the message (a catalog key, ``KeyedError``) says why and
    what to do."""


class EmbeddingAPIError(ModelLoadError):
    """The embeddings API failed; the message is one sentence and never holds the key."""


class LLMError(ModelLoadError):
    """The chat API failed for one question: a catalog key and values, never the API key."""


class MissingLibraryError(RuntimeError):
    """UMAP was asked for and ``umap-learn`` is not installed."""


_ERRNO_KEYS = {errno.ENOENT: "cli.os_missing", errno.EACCES: "cli.os_denied",
               errno.EPERM: "cli.os_denied", errno.EISDIR: "cli.os_folder",
               errno.ENOSPC: "cli.os_full", errno.EROFS: "cli.os_read_only"}


def os_reason(error: OSError) -> Message | str:
    """The system's reason a file could not be read or written, in the catalog's words when
    it is a common one."""
    key = _ERRNO_KEYS.get(error.errno or 0)
    return Message(key) if key else (error.strerror or type(error).__name__).lower()
