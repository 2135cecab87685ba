"""The ``ragviz`` command: chunk, search, eval, calibrate and report from a terminal.

Each command reads a corpus: one text file or ``-`` (read as before, with its encoding
note and size checks), or several paths, folders, ``.html``/``.pdf``/``.docx``/``.zip``
files (``ragviz.inputs.corpus.load_paths``; a file that cannot be converted is one sentence on
stderr and the others still load). Every chunk in the JSON output carries its ``source``.

User mistakes (a missing file, a bad parameter, an unknown model) end with one sentence on
stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

from ragviz.cli.app import run_app
from ragviz.cli.parser import EXIT_USER_ERROR, build_parser, language_of
from ragviz.cli.reading import CLI_LANG, chunker_config
from ragviz.embedding.api_common import api_budget, budget_seconds, operator_bases
from ragviz.errors import InputError, ModelLoadError, UserError
from ragviz.i18n import KeyedError, t
from ragviz.present.safe_text import visible_controls as terminal_safe

__all__ = ["EXIT_USER_ERROR", "build_parser", "chunker_config", "main", "terminal_safe"]

EXIT_INTERRUPTED = 130  # as shells report a Ctrl-C


def quiet_loaded_libraries() -> None:
    """The same for libraries imported before ``main`` (a caller's process): they read the
    variable once, when imported, so they are told directly."""
    if "huggingface_hub" in sys.modules:
        # the module, not the ``tqdm`` class the package exports under the same name
        importlib.import_module("huggingface_hub.utils.tqdm").disable_progress_bars()
    if "transformers" in sys.modules:
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["app"]:  # its other arguments belong to `streamlit run`
        return run_app(argv[1:])
    lang = language_of(argv)
    token = CLI_LANG.set(lang)
    try:  # main() called in-process (tests, a notebook) leaves the caller's language as it was
        return _run(argv, lang)
    finally:
        CLI_LANG.reset(token)


def _run(argv: list[str], lang: str) -> int:
    parser = build_parser(lang)
    args = parser.parse_args(argv)
    # the model library's "Loading weights" bars are not ragviz's output: keep stderr for
    # ragviz's own sentences (set before the library is imported, when a model is chosen)
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    quiet_loaded_libraries()
    try:
        # the command line's bases are its operator's own choice; the run's requests to
        # the embedding and rerank APIs share one budget
        with operator_bases(), api_budget(getattr(args, "api_budget", None) or budget_seconds()):
            args.handler(args)
    except KeyboardInterrupt:
        sys.stderr.write(f"\nragviz {args.command}: {t('cli.interrupted', lang)}\n")
        return EXIT_INTERRUPTED
    except (UserError, InputError, ModelLoadError, ValueError, OSError) as error:
        message = error.for_cli(lang) if isinstance(error, KeyedError) else str(error)
        message = message.strip() or type(error).__name__
        sys.stderr.write(terminal_safe(f"ragviz {args.command}: {message}", keep="") + "\n")
        return EXIT_USER_ERROR
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
