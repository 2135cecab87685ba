# ruff: noqa: E501  (one case per line, so adding a case is adding a line)
"""The bad-input table: every hostile or odd input we test, where it goes in, what the user sees.

Each ``Row`` is one line: an area, the input in words, how it is given (``cli(...)``,
``upload(...)``, ``paste(...)``, ``questions(...)``, ``cell(...)``) and the exact text the
user sees. ``tests/test_bad_inputs.py`` runs every row against the real code and checks that
text; ``tests/BAD_INPUTS.md`` is this table rendered (``python tests/bad_inputs.py`` rewrites
it, and a test fails when it is stale). To add a case, add a row.
"""

from __future__ import annotations

import contextlib
import io
import json
import pickle
import shlex
import sys
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if __name__ == "__main__":  # run as a script: use this checkout's ragviz, not an installed one
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bombs

from ragviz.chunking import CHUNKER_NAMES
from ragviz.cli.command import main, terminal_safe
from ragviz.inputs.documents import shorten

MARKDOWN = Path(__file__).with_name("BAD_INPUTS.md")
DOC = "Reembolso em 7 dias úteis. Frete grátis acima de 200 reais.\n".encode()
# Derived, so a new chunker changes no row of this table.
CHOICES = ", ".join(repr(name) for name in CHUNKER_NAMES)
HUGE = "1" * 5001
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4
HEADER = "question,answer,answerable\n"
LATIN = "Política de devolução: o prazo é de 7 dias úteis. Não há exceções.\n"


@dataclass(frozen=True)
class Cli:
    """``ragviz ARGS`` run in a fresh folder holding ``files``, with ``stdin`` on its input."""

    args: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...] = ()
    stdin: bytes = b""
    stdout_line: bool = False  # the first line of stdout is part of what the user sees
    links: tuple[tuple[str, str], ...] = ()  # (name, target): symbolic links made beside files

    def describe(self) -> str:
        shown = " ".join(shlex.quote(shorten(a, 40)) for a in self.args)
        return f"CLI `ragviz {terminal_safe(shown, keep='')}`"

    def run(self, folder: Path, lang: str = "en") -> CliRun:
        """The run; ``lang`` other than English is given as ``--lang`` at the end."""
        args = [*self.args, *(["--lang", lang] if lang != "en" else [])]
        for name, data in self.files:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        for name, target in self.links:
            (folder / name).symlink_to(target)
        out, err = io.StringIO(), io.StringIO()
        stdin = io.TextIOWrapper(io.BytesIO(self.stdin), encoding="utf-8")
        real_stdin = sys.stdin
        sys.stdin = stdin
        try:
            with contextlib.chdir(folder), contextlib.redirect_stdout(out), \
                    contextlib.redirect_stderr(err):
                try:
                    code = main(args)
                except SystemExit as exit_:  # argparse refuses an option by exiting
                    code = int(exit_.code or 0)
        finally:
            sys.stdin = real_stdin
        return CliRun(code, out.getvalue(), err.getvalue(), self.stdout_line)


@dataclass(frozen=True)
class CliRun:
    code: int
    stdout: str
    stderr: str
    stdout_line: bool

    def seen(self) -> str:
        parts = [f"exit {self.code}"]
        if self.stderr.strip():
            parts.append(self.stderr.strip())
        if self.stdout_line:
            parts.append("stdout: " + self.stdout.splitlines()[0])
        return " · ".join(parts)


@dataclass(frozen=True)
class Upload:
    """A file given to the app's document uploader (``resolve_document``, as the panel does)."""

    name: str
    data: bytes

    def describe(self) -> str:
        return f"app upload `{self.name}`"

    def seen(self, lang: str = "en") -> str:
        from ragviz.i18n import t
        from ragviz_app.app_state import resolve_document

        choice = resolve_document("upload", "", "", (self.name, self.data), lang)
        if choice.error:
            return f"error: {choice.error}"
        shown = f"{len(choice.text or ''):,} characters"
        if choice.notice:
            shown += " · warning: " + t("app.encoding_guessed", lang, encoding=choice.notice)
        shown += "".join(f" · warning: {problem}" for problem in choice.problems)
        return shown


@dataclass(frozen=True)
class Paste:
    """Text pasted into the app's document box."""

    text: str

    def describe(self) -> str:
        return "app paste box"

    def seen(self, lang: str = "en") -> str:
        from ragviz_app.app_state import resolve_document

        choice = resolve_document("paste", "", self.text, None, lang)
        return f"error: {choice.error}" if choice.error else f"{len(choice.text or ''):,} characters"


@dataclass(frozen=True)
class Questions:
    """A questions file's bytes read by ``read_questions_file`` (what ``--questions`` reads)."""

    data: bytes

    def describe(self) -> str:
        return "core `read_questions_file`"

    def seen(self, lang: str = "en") -> str:
        from ragviz.errors import InputError
        from ragviz.inputs.questions import read_questions_file

        try:
            found, decoded = read_questions_file(self.data, "q.csv")
        except InputError as error:
            return f"error: {error.localized(lang)}"
        first = found[0]
        return (
            f"{len(found)} questions, read as {decoded.encoding_name}; first: "
            f"{first.question!r}, {first.answer!r}, {first.answerable}"
        )


@dataclass(frozen=True)
class QuestionTable:
    """A questions file loaded into the app's table over a pasted document: the rows the
    app evaluates and the sentences it shows (``placed_questions``, as the Questions tab)."""

    document: str
    data: bytes

    def describe(self) -> str:
        return "app questions table"

    def seen(self, lang: str = "en") -> str:
        from ragviz.inputs.questions import read_questions_file
        from ragviz_app import app_state

        found, _ = read_questions_file(self.data, "q.csv")
        table = app_state.frame_questions(app_state.questions_frame(found))
        kept, left_out = app_state.placed_questions(table, self.document)
        return " · ".join([f"{len(kept)} of {len(table)} rows evaluated",
                           *(f"error: {said}" for said in
                             app_state.left_out_sentences(left_out, lang, one_document=True))])


@dataclass(frozen=True)
class Cell:
    """One value in a CSV export (``ragviz.present.exports.guard_cell``)."""

    value: str
    numeric: bool = False

    def describe(self) -> str:
        return f"CSV export, {'numeric' if self.numeric else 'text'} column"

    def seen(self, lang: str = "en") -> str:
        from ragviz.present.exports import guard_cell

        return f"cell {guard_cell(self.value, self.numeric)!r}"


@dataclass(frozen=True)
class WorkspaceFile:
    """A workspace file's bytes, as the app's import and a link's workspace read them."""

    data: bytes

    def describe(self) -> str:
        return "core `Workspace.from_json`"

    def seen(self, lang: str = "en") -> str:
        from ragviz.errors import InputError
        from ragviz.share.workspace import Workspace

        try:
            workspace = Workspace.from_json(self.data)
        except InputError as error:
            return f"error: {error.localized(lang)}"
        return f"loaded: {len(workspace.document):,} characters, {len(workspace.questions)} questions"


@dataclass(frozen=True)
class IndexUpload:
    """A file given to the app's Index source (read as ``index_source.load`` reads it);
    ``data`` may be made when the row runs (a Chroma directory needs chromadb)."""

    name: str
    data: bytes | Callable[[], bytes]

    def describe(self) -> str:
        return f"app index upload `{self.name}`"

    def seen(self, lang: str = "en") -> str:
        from ragviz.errors import IndexInputError
        from ragviz.i18n import render, t
        from ragviz_app.index_source import checked_size, read_within, upload_reader

        data = self.data if isinstance(self.data, bytes) else self.data()
        try:
            loaded = checked_size(read_within(upload_reader(self.name, data), None))
        except IndexInputError as error:
            return f"error: {error.localized(lang)}"
        return t("report.chunk_count", lang, n=len(loaded.chunks)) + "".join(
            f" · warning: {render(problem, lang)}" for problem in loaded.problems)


@dataclass(frozen=True)
class IndexServer:
    """An address typed into the app's Index source, with ``RAGVIZ_CHROMA_HOSTS`` as
    given; PORT in it is a socket that accepts and never answers (named PORT again in
    what the user sees, as its number changes)."""

    address: str
    allowed: str = ""

    def describe(self) -> str:
        return f"app index server `{self.address}`, RAGVIZ_CHROMA_HOSTS={self.allowed!r}"

    def seen(self, lang: str = "en") -> str:
        import os
        import socket

        from ragviz.errors import IndexInputError
        from ragviz_app.index_source import HOSTS_ENV, server_reader

        before = os.environ.get(HOSTS_ENV)
        os.environ[HOSTS_ENV] = self.allowed
        with socket.socket() as silent:
            silent.bind(("127.0.0.1", 0))
            silent.listen()
            port = str(silent.getsockname()[1])
            try:
                server_reader(self.address.replace("PORT", port)).collections()
                return "read"
            except IndexInputError as error:
                return f"error: {error.localized(lang).replace(port, 'PORT')}"
            finally:
                os.environ.pop(HOSTS_ENV)
                if before is not None:
                    os.environ[HOSTS_ENV] = before


@dataclass(frozen=True)
class HostileCli:
    """``ragviz ARGS`` against the hostile server of ``tests/hostile_server.py`` (ROOT in the
    arguments is its address, and again in what the user sees, as its port changes), with
    the server's own key set as an operator would; ``pick``: the first line of stdout that
    holds it is part of what the user sees."""

    args: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...]
    pick: str = ""

    def describe(self) -> str:
        return "hostile server: " + Cli(self.args).describe()

    def seen(self, lang: str = "en") -> str:
        import os
        import tempfile

        from hostile_server import hostile_server

        before = os.environ.get("RAGVIZ_LLM_API_KEY")
        os.environ["RAGVIZ_LLM_API_KEY"] = "sk-server-secret-0123456789"
        try:
            with hostile_server() as (root, _), tempfile.TemporaryDirectory() as folder:
                args = tuple(a.replace("ROOT", root) for a in self.args)
                run = Cli(args, self.files).run(Path(folder), lang)
        finally:
            os.environ.pop("RAGVIZ_LLM_API_KEY")
            if before is not None:
                os.environ["RAGVIZ_LLM_API_KEY"] = before
        lines = [line.strip() for line in run.stdout.splitlines() if self.pick in line]
        seen = run.seen() + (f" · stdout: {lines[0]}" if self.pick and lines else "")
        port = root.rsplit(":", 1)[1]
        return seen.replace(root, "ROOT").replace(f"localhost:{port}", "localhost:PORT")


Interface = (Cli | Upload | Paste | Questions | Cell | WorkspaceFile | IndexUpload | IndexServer
             | HostileCli)


def cli(args: str | Sequence[str], files: dict[str, bytes] | None = None,
        stdin: bytes = b"", stdout_line: bool = False,
        links: dict[str, str] | None = None) -> Cli:
    """``args`` as a shell line (or a list, for values a shell line cannot hold)."""
    split = shlex.split(args) if isinstance(args, str) else list(args)
    given = {"doc.txt": DOC} if files is None else files
    return Cli(tuple(split), tuple(given.items()), stdin, stdout_line,
               tuple((links or {}).items()))


def qfile(text: str | bytes) -> dict[str, bytes]:
    """The document plus a questions file ``q.csv``."""
    return {"doc.txt": DOC, "q.csv": text if isinstance(text, bytes) else text.encode()}


def doc(data: bytes) -> dict[str, bytes]:
    return {"doc.txt": data}


def zipped(members: dict[str, bytes], misspelt: tuple[bytes, bytes] = (b"", b"")) -> bytes:
    """A zip of ``members``; ``misspelt`` replaces bytes in it (e.g. a name's UTF-8 by
    bytes that are not UTF-8, its flag left saying UTF-8)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    old, new = misspelt
    return buffer.getvalue().replace(old, new) if old else buffer.getvalue()


@dataclass(frozen=True)
class Row:
    area: str
    input: str
    interface: Interface
    seen: str
    offsets_exact: bool = field(default=False)  # the CLI's --json chunks must slice the input


EVAL = "eval doc.txt --questions q.csv"
SEARCH = "search doc.txt --question prazo"
CHUNK_JSON = "chunk doc.txt --json --chunker fixed --size 40"
NOTE = "ragviz: note: doc.txt is not UTF-8; read it as"
BINARY = "looks binary, not text: give a text file in UTF-8 or UTF-16."
FLOOR = "argument --floor: give a number, got"
OFF_SCALE = "is off this scorer's scale: give a number from -1 to 1"
TOP_K = "argument --top-k: give a whole number from 1 to 10, got"
SEE = "(see ragviz search --help)"
LIMITS = "a question may have 500 characters, an answer 2,000"

ROWS: tuple[Row, ...] = (
    # --- documents -----------------------------------------------------------------------------
    Row("document", "empty file", cli("chunk doc.txt", doc(b"")), "exit 2 · ragviz chunk: The document doc.txt is empty: give a text file that holds some text."),
    Row("document", "whitespace only", cli("chunk doc.txt", doc(b" \n\t\r\n ")), "exit 2 · ragviz chunk: The document doc.txt is empty: give a text file that holds some text."),
    Row("document", "empty standard input", cli("chunk -", {}, stdin=b""), "exit 2 · ragviz chunk: The document on standard input is empty: give a text file that holds some text."),
    Row("document", "a PNG image", cli("chunk doc.txt", doc(PNG)), f"exit 2 · ragviz chunk: The file doc.txt {BINARY}"),
    Row("document", "text with NUL bytes", cli("chunk doc.txt", doc(b"Reembolso\x00em 7 dias.\x00" * 5)), f"exit 2 · ragviz chunk: The file doc.txt {BINARY}"),
    Row("document", "only control characters", cli("chunk doc.txt", doc(bytes(range(1, 9)) * 50)), f"exit 2 · ragviz chunk: The file doc.txt {BINARY}"),
    Row("document", "UTF-16 LE with BOM (Notepad \"Unicode\")", cli(CHUNK_JSON, doc(("\ufeff" + LATIN).encode("utf-16-le"))), f"exit 0 · {NOTE} UTF-16 LE", True),
    Row("document", "UTF-16 BE with BOM", cli(CHUNK_JSON, doc(("\ufeff" + LATIN).encode("utf-16-be"))), f"exit 0 · {NOTE} UTF-16 BE", True),
    Row("document", "UTF-16 LE without BOM", cli(CHUNK_JSON, doc(LATIN.encode("utf-16-le"))), f"exit 0 · {NOTE} UTF-16 LE; check accented letters", True),
    Row("document", "UTF-16 BE without BOM", cli(CHUNK_JSON, doc(LATIN.encode("utf-16-be"))), f"exit 0 · {NOTE} UTF-16 BE; check accented letters", True),
    Row("document", "Latin-1 accents", cli(CHUNK_JSON, doc(LATIN.encode("latin-1"))), f"exit 0 · {NOTE} Windows-1252; check accented letters", True),
    Row("document", "cp1252 euro sign and curly quotes", cli(CHUNK_JSON, doc("“Preço” de 10 €.\n".encode("cp1252"))), f"exit 0 · {NOTE} Windows-1252; check accented letters", True),
    Row("document", "invalid UTF-8 with a byte cp1252 lacks (0x81)", cli(CHUNK_JSON, doc(b"Pre\x81o e prazo.\n")), f"exit 0 · {NOTE} Latin-1; check accented letters", True),
    Row("document", "UTF-8 with BOM", cli(CHUNK_JSON, doc(b"\xef\xbb\xbf" + DOC)), "exit 0", True),
    Row("document", "over the upload limit (4,000,001 bytes)", cli("chunk doc.txt", doc(b"a" * 4_000_001)), "exit 2 · ragviz chunk: The file doc.txt has 4,000,001 bytes (4.0 MB); the limit is 4,000,000 bytes (4 MB)."),
    Row("document", "over the character limit of a file (1,000,001 characters)", cli("chunk doc.txt", doc("é".encode() * 1_000_001)), "exit 2 · ragviz chunk: The document doc.txt has 1,000,001 characters; the limit is 1,000,000: give a shorter file."),
    Row("document", "one 150,000-character line, no sentence end", cli("chunk doc.txt --json --chunker fixed --size 1000", doc(b"palavra " * 18_750)), "exit 0", True),
    Row("document", "right-to-left Arabic and Hebrew", cli(CHUNK_JSON, doc("سياسة الاسترداد: سبعة أيام. מדיניות החזרים: שבעה ימים.\n".encode())), "exit 0", True),
    Row("document", "emoji, ZWJ sequences and flags", cli(CHUNK_JSON, doc("Reembolso 👩‍👩‍👧‍👦 em 7 dias 🇧🇷. Frete 🚚💨 grátis.\n".encode())), "exit 0", True),
    Row("document", "combining marks (e + U+0301)", cli(CHUNK_JSON, doc("Pe\u0301rola, ac\u0327a\u0303o e ca\u0301lculo.\n".encode())), "exit 0", True),
    Row("document", "CRLF and lone-CR line ends", cli(CHUNK_JSON, doc(b"Linha um.\r\nLinha dois.\rLinha tres.\r\n")), "exit 0", True),
    Row("document", "a missing file", cli("chunk nope.txt", {}), "exit 2 · ragviz chunk: the document nope.txt does not exist"),
    Row("document", "a folder (read as a corpus)", cli("chunk sub", {"sub/x.txt": DOC, "sub/y.md": DOC}), "exit 0"),
    Row("document", "a folder with nothing readable", cli("chunk sub", {"sub/notes.pdf": b"plain words", "sub/x.png": PNG}), "exit 2 · ragviz: skipped: 1 file in sub is not .txt, .md, .markdown, .html, .htm, .pdf, .docx, or .zip and was not read.\nragviz: skipped: notes.pdf could not be read: it is named .pdf but its content is not a PDF.\nragviz chunk: no file could be read from sub"),
    Row("document", "two files, one unreadable", cli("chunk doc.txt bad.docx", {"doc.txt": DOC, "bad.docx": b"not a zip"}), "exit 0 · ragviz: skipped: bad.docx could not be read: it is named .docx but its content is not a Word document."),
    Row("document", "app: empty paste", Paste(" \n "), "error: The document is empty: paste text, upload a .txt or .md file, or pick a sample."),
    Row("document", "app: paste over the limit", Paste("a" * 200_001), "error: The document has 200,001 characters; the limit is 200,000. Paste a shorter part."),
    Row("document", "app: UTF-16 LE upload with BOM", Upload("n.txt", ("\ufeff" + LATIN).encode("utf-16-le")), "67 characters · warning: The file is not UTF-8; it was read as UTF-16 LE. Check accented letters."),
    Row("document", "app: UTF-16 BE upload without BOM", Upload("n.txt", LATIN.encode("utf-16-be")), "67 characters · warning: The file is not UTF-8; it was read as UTF-16 BE. Check accented letters."),
    Row("document", "app: Latin-1 upload", Upload("l.txt", LATIN.encode("latin-1")), "67 characters · warning: The file is not UTF-8; it was read as Windows-1252. Check accented letters."),
    Row("document", "app: a PDF upload", Upload("r.pdf", b"%PDF-1.7\n\x00\x01\x02" * 40), "error: r.pdf could not be read: the PDF is damaged or incomplete."),
    Row("document", "app: an int16 array posing as UTF-16", Upload("a.txt", bytes([1, 0, 2, 0, 3, 0]) * 100), "error: The file a.txt looks binary, not text: upload a .txt or .md file."),
    Row("document", "app: upload over the limit", Upload("big.txt", b"a" * 4_500_000), "error: The file big.txt has 4,500,000 bytes (4.5 MB); the limit is 4,000,000 bytes (4 MB)."),
    # --- archives, DOCX and PDF internals (issue 24) ----------------------------------------------
    Row("archive", "DOCX bomb: 300 MB of paragraph XML in 0.9 MB", cli("chunk bomb.docx", {"bomb.docx": bombs.docx_bomb(300)}), "exit 2 · ragviz: skipped: bomb.docx could not be read: it holds more than 1,000,000 characters of text, the limit for one file.\nragviz chunk: no file could be read from bomb.docx"),
    Row("archive", "DOCX bomb: 21 MB of empty paragraphs", cli("chunk bomb.docx", {"bomb.docx": bombs.docx_bomb(21, bombs.EMPTY_PARAGRAPH)}), "exit 2 · ragviz: skipped: bomb.docx could not be read: its text part unpacks to more than 20,000,000 bytes (a decompression bomb?).\nragviz chunk: no file could be read from bomb.docx"),
    Row("archive", "DOCX whose XML is not XML, beside a good file", cli("chunk bad.docx doc.txt", {"bad.docx": bombs.docx_xml(b"not xml"), "doc.txt": DOC}), "exit 0 · ragviz: skipped: bad.docx could not be read: the Word document is damaged."),
    Row("archive", "DOCX with a billion-laughs DTD", cli("chunk bad.docx", {"bad.docx": bombs.docx_xml(bombs.BILLION_LAUGHS)}), "exit 2 · ragviz: skipped: bad.docx could not be read: the Word document is damaged.\nragviz chunk: no file could be read from bad.docx"),
    Row("archive", "DOCX with 100,000 nested elements", cli("chunk bad.docx", {"bad.docx": bombs.deep_docx(100_000)}), "exit 2 · ragviz: skipped: bad.docx could not be read: it holds no text.\nragviz chunk: no file could be read from bad.docx"),
    Row("archive", "PDF with 5,000 nested arrays, beside a good file", cli("chunk bad.pdf doc.txt", {"bad.pdf": bombs.pdf_nested_arrays(5_000), "doc.txt": DOC}), "exit 0 · ragviz: skipped: bad.pdf could not be read: the PDF is damaged or incomplete."),
    Row("archive", "PDF stream past pypdf's 75 MB decompression limit", cli("chunk bomb.pdf", {"bomb.pdf": bombs.pdf_decompression_bomb()}), "exit 2 · ragviz: skipped: bomb.pdf could not be read: a compressed part of it unpacks past the safety limit (a decompression bomb?).\nragviz chunk: no file could be read from bomb.pdf"),
    Row("archive", "app: PDF CPU bomb (3 pages share 950,000 `(a) Tj`)", Upload("slow.pdf", bombs.pdf_cpu_bomb()), "error: slow.pdf could not be read: reading its first page took longer than 8 s (a PDF built to be slow?)."),
    Row("archive", "app: one .html over 1,000,000 characters", Upload("long.html", b"<p>" + b"Refunds take seven days. " * 50_000 + b"</p>"), "error: long.html could not be read: it holds more than 1,000,000 characters of text, the limit for one file."),
    Row("archive", "app: HTML with 300 nested divs", Upload("deep.html", b"<p>before</p>" + b"<div>" * 300 + b"deep" + b"</div>" * 300), "6 characters · warning: deep.html: text nested more than 255 elements deep, and what follows it, was left out."),
    Row("archive", "HTML with 2,000 nested tables", cli("chunk deep.html", {"deep.html": b"<table><tr><td>" * 2000 + b"cell" + b"</td></tr></table>" * 2000}), "exit 2 · ragviz: skipped: deep.html could not be read: its text sits inside more than 255 nested elements, deeper than ragviz reads HTML.\nragviz chunk: no file could be read from deep.html"),
    Row("archive", "zip member inflating to 190 MB beside a good file", cli("chunk kb.zip", {"kb.zip": bombs.zip_bomb_member()}), "exit 0 · ragviz: skipped: bomb.txt in kb.zip was skipped: it unpacks to more than 4,000,000 bytes, the limit for one file."),
    # --- the embedding API (issue 24) -----------------------------------------------------------
    Row("api", "--api-base without http://", cli(["search", "doc.txt", "--question", "prazo", "--model", "openai:m", "--api-base", "127.0.0.1:8712/v1"], doc(DOC)), "exit 2 · ragviz search: the API base URL '127.0.0.1:8712/v1' must start with http:// or https:// and name a host (e.g. http://localhost:11434/v1); nothing was sent"),
    Row("api", "--api-base with ftp://", cli(["search", "doc.txt", "--question", "prazo", "--model", "openai:m", "--api-base", "ftp://127.0.0.1/v1"], doc(DOC)), "exit 2 · ragviz search: the API base URL 'ftp://127.0.0.1/v1' must start with http:// or https:// and name a host (e.g. http://localhost:11434/v1); nothing was sent"),
    Row("api", "--api-base with user:password@", cli(["search", "doc.txt", "--question", "prazo", "--model", "openai:m", "--api-base", "http://bob:hunter2@127.0.0.1:9/v1"], doc(DOC)), "exit 2 · ragviz search: the API base URL 'http://***@127.0.0.1:9/v1' holds a user name or password; remove it and put the key in the API key field (or OPENAI_API_KEY)"),
    # --- questions files -------------------------------------------------------------------------
    Row("questions", "an empty file", cli(EVAL, qfile("")), "exit 2 · ragviz eval: the questions file is empty: it needs a header row question,answer,answerable"),
    Row("questions", "a header and no question", cli(EVAL, qfile(HEADER)), "exit 2 · ragviz eval: The questions file q.csv has no questions: add one per line under the header question,answer,answerable."),
    Row("questions", "a lone CR between two rows", Questions(HEADER.encode() + b"Qual?,x,true\rOutra?,,false\n"), "2 questions, read as UTF-8; first: 'Qual?', 'x', True"),
    Row("questions", "classic Mac CR line ends", Questions(b"question,answer\rQual o prazo?,7 dias\r"), "1 questions, read as UTF-8; first: 'Qual o prazo?', '7 dias', None"),
    Row("questions", "a quoted semicolon header", cli(EVAL, qfile('"question";"answer";"answerable"\n"Qual?";"x";"true"\n')), "exit 2 · ragviz eval: line 1: the columns are separated by semicolons; save the file with commas (question,answer,answerable)."),
    Row("questions", "a semicolon header", cli(EVAL, qfile("question;answer;answerable\nQual?;x;true\n")), "exit 2 · ragviz eval: line 1: the columns are separated by semicolons; save the file with commas (question,answer,answerable)."),
    Row("questions", "a quote that never closes", cli(EVAL, qfile(HEADER + '"Qual o prazo?,7 dias,true\nOutra?,x,true\nMais?,y,true\n')), 'exit 2 · ragviz eval: line 2: a quote (") opens a field that is never closed; close or remove it.'),
    Row("questions", "text after a closing quote", cli(EVAL, qfile(HEADER + 'ok,,true\n"Qual" o prazo,x,true\n')), 'exit 2 · ragviz eval: line 3: a quoted field is followed by more text before the next comma; put the whole field in quotes and double any quote inside it ("").'),
    Row("questions", "a 140,000-character field", cli(EVAL, qfile(HEADER + '"' + "x" * 140_000 + '",,\n')), f'exit 2 · ragviz eval: line 2: a field runs far past the limits ({LIMITS}); look for a quote (") that is never closed.'),
    Row("questions", "a 5,001-digit answerable value", cli(EVAL, qfile(HEADER + f"Qual?,,{HUGE}\n")), f"exit 2 · ragviz eval: line 2: answerable must be true/false, yes/no, sim/não or 1/0, got '{'1' * 59}…'."),
    Row("questions", "a 5,001-digit question", cli(EVAL, qfile(HEADER + f"{HUGE},,true\n")), "exit 2 · ragviz eval: line 2: the question has 5,001 characters; the limit is 500."),
    Row("questions", "an answer over 2,000 characters", cli(EVAL, qfile(HEADER + "Qual?," + "a" * 2001 + ",true\n")), "exit 2 · ragviz eval: line 2: the expected answer has 2,001 characters; the limit is 2,000."),
    Row("questions", "no question column", cli(EVAL, qfile("pergunta,resposta\nQual?,x\n")), "exit 2 · ragviz eval: line 1: the questions file needs a 'question' column, found pergunta, resposta."),
    Row("questions", "an unknown extra column", cli(EVAL, qfile("question,answer,answerable,notes\nQual?,x,true,n\n")), "exit 2 · ragviz eval: line 1: unknown column notes; use question,answer,answerable (and optionally references,corpus_id)."),
    Row("questions", "a column twice", cli(EVAL, qfile("question,question,answer\na,b,c\n")), "exit 2 · ragviz eval: line 1: a column appears twice (question, question, answer)."),
    Row("questions", "a row with more fields than the header", cli(EVAL, qfile(HEADER + "Qual?,x,true,extra\n")), "exit 2 · ragviz eval: line 2: 4 fields, the header has 3."),
    Row("questions", "answerable is 'talvez'", cli(EVAL, qfile(HEADER + "Qual?,x,talvez\n")), "exit 2 · ragviz eval: line 2: answerable must be true/false, yes/no, sim/não or 1/0, got 'talvez'."),
    Row("questions", "unanswerable with an answer", cli(EVAL, qfile(HEADER + "Qual?,7 dias,false\n")), "exit 2 · ragviz eval: line 2: an unanswerable question cannot have an expected answer."),
    Row("questions", "an empty question", cli(EVAL, qfile(HEADER + "ok,,true\n,x,true\n")), "exit 2 · ragviz eval: line 3: the question is empty."),
    Row("questions", "5,001 questions", cli(EVAL, qfile(HEADER + "".join(f"q{i},,true\n" for i in range(5001)))), "exit 2 · ragviz eval: line 5002: more than 5,000 questions; the limit is 5,000."),
    Row("questions", "references that are not JSON", cli(EVAL, qfile('question,references\nq,"[{"""\n')), 'exit 2 · ragviz eval: line 2: the references are not valid JSON; write a list like [{"content": "...", "start_index": 0, "end_index": 10}].'),
    Row("questions", "an excerpt whose offsets miss its text", cli(EVAL, qfile('question,references\nq,"[{""content"": ""zzz"", ""start_index"": 0, ""end_index"": 3}]"\n')), "exit 2 · ragviz: line 2: excerpt 1: offsets 0–3 do not slice the file to the excerpt's content; the row is left out.\nragviz eval: no question's excerpts lie in the corpus: check corpus_id and the offsets against the files given"),
    Row("questions", "an excerpt offset of 4,000 digits", cli(EVAL, qfile('question,references\nq,"[{""content"": ""zzz"", ""start_index"": ' + "9" * 4000 + ', ""end_index"": ' + "9" * 4000 + '}]"\n')), "exit 2 · ragviz: line 2: excerpt 1: offsets 9999999999999999999…–9999999999999999999… do not slice the file to the excerpt's content; the row is left out.\nragviz eval: no question's excerpts lie in the corpus: check corpus_id and the offsets against the files given"),
    Row("questions", "excerpts not in the document, in the app", QuestionTable("Orders arrive in five days.", b'question,references\nq,"[{""content"": ""Orders"", ""start_index"": 1, ""end_index"": 7}]"\nr,"[{""content"": ""Pets fly""}]"\ns,"[{""content"": ""five days""}]"\n'), "1 of 3 rows evaluated · error: Row 1 (“q”): excerpt 1: offsets 1–7 do not slice the file to the excerpt's content; the question is left out of the evaluation and stays in the table. · error: Row 2 (“r”): excerpt 1: the excerpt's text is not in the corpus; the question is left out of the evaluation and stays in the table."),
    Row("questions", "a benchmark file (corpus_id naming files) over one pasted document, in the app", QuestionTable("Orders arrive in five days.", b'question,references,corpus_id\nq,"[{""content"": ""arrive in five"", ""start_index"": 90, ""end_index"": 104}]",faq\nr,"[{""content"": ""Pets fly""}]",refunds\ns,"[{""content"": ""x""}]",/\n'), "1 of 3 rows evaluated · error: 2 questions expect excerpts of files that are not in this document (/, refunds): they are left out of the evaluation and stay in the table."),
    Row("questions", "corpus_id '/' or '.' beside a named one", cli(EVAL, qfile('question,references,corpus_id\nq,"[{""content"": ""Reembolso""}]",/\nr,"[{""content"": ""Frete""}]",.\ns,"[{""content"": ""dias""}]",doc\n')), "exit 0"),
    Row("questions", "a NUL byte", cli(EVAL, qfile(HEADER.encode() + b"Qual?\x00,,true\n")), f"exit 2 · ragviz eval: The file q.csv {BINARY}"),
    Row("questions", "a missing file", cli("eval doc.txt --questions none.csv"), "exit 2 · ragviz eval: the questions file none.csv does not exist"),
    Row("questions", "a folder", cli("eval doc.txt --questions sub", {"doc.txt": DOC, "sub/a": b""}), "exit 2 · ragviz eval: the questions file sub is a folder; give a text file"),
    Row("questions", "document and questions both on stdin", cli("eval - --questions -", {}, stdin=b"question\n" + b"x" * 3000), "exit 2 · ragviz eval: the document and --questions cannot both be standard input (-); give the questions as a file"),
    Row("questions", "UTF-8 BOM before the header", Questions(b"\xef\xbb\xbf" + HEADER.encode() + b"Qual?,x,sim\n"), "1 questions, read as UTF-8; first: 'Qual?', 'x', True"),
    Row("questions", "Excel \"Unicode text\" (UTF-16 LE, tabs)", Questions("\ufeffquestion\tanswer\tanswerable\r\nQual o prazo?\t7 dias\ttrue\r\n".encode("utf-16-le")), "1 questions, read as UTF-16 LE; first: 'Qual o prazo?', '7 dias', True"),
    Row("questions", "UTF-16 BE without BOM", Questions((HEADER + "Senha do wifi?,,não\n").encode("utf-16-be")), "1 questions, read as UTF-16 BE; first: 'Senha do wifi?', '', False"),
    Row("questions", "Latin-1 accents", Questions((HEADER + "Qual é o prazo?,7 dias úteis,sim\n").encode("latin-1")), "1 questions, read as Windows-1252; first: 'Qual é o prazo?', '7 dias úteis', True"),
    Row("questions", "a Latin-1 file via the CLI", cli(EVAL, {"doc.txt": b"", "q.csv": (HEADER + "Qual é?,,não\n").encode("latin-1")}), "exit 2 · ragviz: note: q.csv is not UTF-8; read it as Windows-1252; check accented letters\nragviz eval: The document doc.txt is empty: give a text file that holds some text."),
    Row("workspace", "a 5,001-digit integer", WorkspaceFile(b'{"format": "ragviz-workspace", "version": ' + HUGE.encode() + b"}"), "error: the workspace file has a value ragviz cannot read: a number with 5,001 digits is far too large"),
    # --- options -------------------------------------------------------------------------------
    Row("options", "--floor 2", cli(SEARCH + " --floor 2"), f"exit 2 · ragviz search: the floor 2 {OFF_SCALE}"),
    Row("options", "--floor -1.5", cli(SEARCH + " --floor -1.5"), f"exit 2 · ragviz search: the floor -1.5 {OFF_SCALE}"),
    Row("options", "--floor -0.5 with bm25 (0 up)", cli(SEARCH + " --scorer bm25 --floor -0.5"), "exit 2 · ragviz search: the floor -0.5 is off this scorer's scale: give a number from 0 to 1e+06"),
    Row("options", "an unknown scorer option", cli(SEARCH + " --scorer hybrid(alpha=2)"), "exit 2 · ragviz search: the hybrid scorer's option alpha cannot be '2': choose 0 to 1"),
    Row("options", "Chonkie's minimum of sentences not met (it logged a WARNING to stderr)", cli("chunk doc.txt --chunker chonkie_sentence --min-sentences-per-chunk 50"), "exit 0"),
    Row("options", "--size for a chunker that takes max-chars", cli("chunk doc.txt --chunker sentence --size 40"), "exit 2 · ragviz chunk: sentence does not take --size: its options are --max-chars, --overlap-sentences"),
    Row("options", "--floor abc", cli(SEARCH + " --floor abc"), f"exit 2 · ragviz search: {FLOOR} 'abc' {SEE}"),
    Row("options", "--floor nan", cli(SEARCH + " --floor nan"), f"exit 2 · ragviz search: {FLOOR} 'nan' {SEE}"),
    Row("options", "--floor inf", cli(SEARCH + " --floor inf"), f"exit 2 · ragviz search: {FLOOR} 'inf' {SEE}"),
    Row("options", "--floor with 5,001 digits", cli(SEARCH + f" --floor {HUGE}"), f"exit 2 · ragviz search: {FLOOR} '{'1' * 59}…' {SEE}"),
    Row("options", "--top-k 0", cli(SEARCH + " --top-k 0"), f"exit 2 · ragviz search: {TOP_K} 0 {SEE}"),
    Row("options", "--top-k 11", cli(SEARCH + " --top-k 11"), f"exit 2 · ragviz search: {TOP_K} 11 {SEE}"),
    Row("options", "--top-k -3", cli(SEARCH + " --top-k -3"), f"exit 2 · ragviz search: {TOP_K} -3 {SEE}"),
    Row("options", "--top-k 2.5", cli(SEARCH + " --top-k 2.5"), f"exit 2 · ragviz search: {TOP_K} '2.5' {SEE}"),
    Row("options", "--top-k with 5,001 digits", cli(SEARCH + f" --top-k {HUGE}"), f"exit 2 · ragviz search: {TOP_K} a 5,001-digit number {SEE}"),
    Row("options", "--size 0", cli("chunk doc.txt --chunker fixed --size 0"), "exit 2 · ragviz chunk: size must be at least 1, got 0"),
    Row("options", "--size -5", cli("chunk doc.txt --chunker fixed --size -5"), "exit 2 · ragviz chunk: size must be at least 1, got -5"),
    Row("options", "--size abc", cli("chunk doc.txt --chunker fixed --size abc"), "exit 2 · ragviz chunk: argument --size: invalid int value: 'abc' (see ragviz chunk --help)"),
    Row("options", "--size with 5,001 digits", cli(f"chunk doc.txt --chunker fixed --size {HUGE}"), f"exit 2 · ragviz chunk: argument --size: invalid int value: '{'1' * 59}…' (see ragviz chunk --help)"),
    Row("options", "--overlap equal to --size", cli("chunk doc.txt --chunker fixed --size 10 --overlap 10"), "exit 2 · ragviz chunk: overlap must be smaller than size (10), got 10"),
    Row("options", "--overlap-sentences -1", cli("chunk doc.txt --overlap-sentences -1"), "exit 2 · ragviz chunk: overlap_sentences must be at least 0, got -1"),
    Row("options", "--chunker nope", cli("chunk doc.txt --chunker nope"), f"exit 2 · ragviz chunk: argument --chunker: invalid choice: 'nope' (choose from {CHOICES}) (see ragviz chunk --help)"),
    Row("options", "Chonkie's TokenChunker with the model's tokenizer, on the default model (no Hugging Face tokenizer)", cli("chunk doc.txt --chunker chonkie_token_model --chunk-size 64"), "exit 2 · ragviz chunk: Chonkie's TokenChunker takes a Hugging Face tokenizer, which use-multilingual does not have: choose minilm-en or another sentence-transformers model"),
    Row("options", "--model nope (offline)", cli("chunk doc.txt --model nope"), "exit 2 · ragviz chunk: cannot download 'nope': this machine has no access to the model hub (offline). Use a bundled model (use-multilingual, minilm-en), a local model folder, or download the model once on a machine with network access."),
    Row("options", "an empty --question", cli("search doc.txt --question ''"), "exit 2 · ragviz search: a --question is empty"),
    Row("options", "a 501-character --question", cli(["search", "doc.txt", "--question", "q" * 501]), "exit 2 · ragviz search: --question: the question has 501 characters; the limit is 500."),
    Row("options", "search without a question", cli("search doc.txt"), "exit 2 · ragviz search: give at least one --question"),
    Row("options", "an unknown option", cli("chunk doc.txt --frobnicate"), "exit 2 · ragviz: unrecognized arguments: --frobnicate (see ragviz --help)"),
    Row("options", "--html to a folder", cli("report doc.txt --questions q.csv --html out", {**qfile(HEADER + "Qual?,7 dias,true\n"), "out/keep": b""}), "exit 2 · ragviz report: --html out is a folder; give a file name such as out/report.html"),
    Row("options", "--html in a missing folder", cli("report doc.txt --questions q.csv --html gone/r.html", qfile(HEADER + "Qual?,7 dias,true\n")), "exit 2 · ragviz report: --html gone/r.html: the folder gone does not exist"),
    Row("options", "--html where nothing can be written (/proc)", cli("report doc.txt --questions q.csv --html /proc/r.html", qfile(HEADER + "Qual?,7 dias,true\n")), "exit 2 · ragviz report: cannot write --html /proc/r.html: no such file or directory"),
    Row("options", "--cost-false-answer -1", cli("calibrate doc.txt --questions q.csv --cost-false-answer -1", qfile(HEADER + "Qual?,7 dias,true\nWifi?,,false\n")), "exit 2 · ragviz calibrate: argument --cost-false-answer: give a number, zero or more, got '-1' (see ragviz calibrate --help)"),
    # --- terminal output -----------------------------------------------------------------------
    Row("terminal", "ESC, OSC and BEL in a --question", cli(["search", "doc.txt", "--question", "a\x1b[2J\x1b]0;pwn\x07b"], stdout_line=True), "exit 0 · stdout: a\\x1b[2J\\x1b]0;pwn\\x07b"),
    Row("terminal", "backspace, C1 CSI and a bidi override in a --question", cli(["search", "doc.txt", "--question", "ok\x08\x08no\x9b31m\u202egnp"], stdout_line=True), "exit 0 · stdout: ok\\x08\\x08no\\x9b31m\\u202egnp"),
    Row("terminal", "C1 CSI, DEL and a bidi override in --json output", cli(["search", "doc.txt", "--json", "--question", "a\x9b2J\x7f\u202eb\x1b"], stdout_line=False), "exit 0"),
    Row("terminal", "ESC in a file name in an error", cli(["chunk", "a\x1b[31m.txt"], {}), "exit 2 · ragviz chunk: the document a\\x1b[31m.txt does not exist"),
    # --- production indexes (issue 21; the Chroma cases are in tests/test_index*.py) ---------------
    Row("index", "a folder that is not a Chroma directory", cli("index chroma:notes", {"notes/a.txt": b"hi"}), "exit 2 · ragviz index: notes is not a Chroma directory: it holds no chroma.sqlite3"),
    Row("index", "a path that is no index", cli("index doc.txt"), "exit 2 · ragviz index: doc.txt is not an index ragviz reads: give chroma:DIR, chroma+http://HOST:PORT, postgresql://USER@HOST/DB, qdrant:DIR, qdrant+http://HOST:PORT, *.jsonl, *.csv, *.parquet"),
    Row("index", "a Postgres URI with a password that refuses the connection", cli("index postgresql://alice:hunter2@127.0.0.1:1/db", {}), 'exit 2 · ragviz index: ragviz could not connect to the Postgres database alice@127.0.0.1:1/db (connection failed: connection to server at "127.0.0.1", port 1 failed: Connection refused): check the URI, that the server runs and that it lets this user in'),
    Row("index", "a folder that is not Qdrant's storage", cli("index qdrant:notes", {"notes/a.txt": b"hi"}), "exit 2 · ragviz index: notes is not a Qdrant storage folder: it holds no meta.json and collection folder"),
    Row("index", "a Qdrant server address without a port", cli("index qdrant+http://localhost", {}), "exit 2 · ragviz index: 'qdrant+http://localhost' is not a Qdrant server address: write qdrant+http://HOST:PORT"),
    Row("index", "a server address without a port", cli("index chroma+http://localhost", {}), "exit 2 · ragviz index: 'chroma+http://localhost' is not a server address: write chroma+http://HOST:PORT"),
    Row("index", "a JSONL with no readable line", cli("index x.jsonl", {"x.jsonl": b"{broken\n"}), "exit 2 · ragviz index: x.jsonl holds no readable chunk: x.jsonl line 1 is not valid JSON (Expecting property name enclosed in double quotes)"),
    Row("index", "a JSONL with a broken line among good ones", cli("index x.jsonl", {"x.jsonl": b'{"text": "a"}\n{broken\n'}, stdout_line=True), "exit 0 · stdout: x.jsonl line 2 is not valid JSON (Expecting property name enclosed in double quotes); it was left out"),
    Row("index", "a NaN in a CSV export's vector", cli("index c.csv", {"c.csv": b'text,vector\na,"[NaN, 1.0]"\n'}), "exit 2 · ragviz index: c.csv holds no readable chunk: c.csv row 1: the stored vector holds NaN or infinite values; rebuild that chunk's vector"),
    Row("index", "eval with document paths and --index", cli("eval doc.txt --index x.jsonl --questions q.csv", qfile(HEADER + "prazo?,7 dias,yes\n")), "exit 2 · ragviz eval: with --index, give the files the index was built from with --sources"),
    Row("index", "eval with neither files nor --index", cli("eval --questions q.csv", qfile(HEADER + "prazo?,7 dias,yes\n")), "exit 2 · ragviz eval: give the document files, or a production index with --index"),
    Row("index", "a server that does not answer (nothing listens on the port)", cli("eval --index chroma+http://127.0.0.1:9 --collection big --questions q.csv", qfile(HEADER + "prazo?,7 dias,yes\n")), "exit 2 · ragviz eval: the Chroma server at 127.0.0.1:9 does not answer (Connection refused); check the address and that the server runs"),
    Row("index", "--index-mode database on a chunk export file", cli("eval --index x.jsonl --index-mode database --questions q.csv", {"x.jsonl": b'{"text": "a"}\n', **qfile(HEADER + "prazo?,7 dias,yes\n")}), "exit 2 · ragviz eval: x.jsonl is a file: it is read whole, the database mode needs a Chroma index"),
    Row("index", "eval --index: an excerpt of a file outside the sources (../)", cli("eval --index x.jsonl --questions q.csv --sources doc.txt", {"x.jsonl": b'{"text": "Reembolso em 7 dias."}\n', **qfile('question,references,corpus_id\nq,"[{""content"": ""Reembolso""}]",../etc/passwd\n')}), "exit 2 · ragviz: line 2: excerpt 1: no file '../etc/passwd' in the corpus; the row is left out.\nragviz eval: no question's excerpts lie in the corpus: check corpus_id and the offsets against the files given"),
    Row("index", "--margin -1", cli("eval --index x.jsonl --margin -1 --questions q.csv", qfile(HEADER + "prazo?,7 dias,yes\n")), "exit 2 · ragviz eval: argument --margin: give a whole number from 0 to 10000, got '-1' (see ragviz eval --help)"),
    Row("index", "--index-mode nope", cli("eval --index x.jsonl --index-mode nope --questions q.csv", qfile(HEADER + "prazo?,7 dias,yes\n")), "exit 2 · ragviz eval: argument --index-mode: invalid choice: 'nope' (choose from 'auto', 'memory', 'database') (see ragviz eval --help)"),
    # --- CSV exports ---------------------------------------------------------------------------
    Row("export", "=HYPERLINK formula", Cell('=HYPERLINK("http://x","y")'), "cell '\\'=HYPERLINK(\"http://x\",\"y\")'"),
    Row("export", "+1+cmd DDE payload", Cell("+1+cmd|' /C calc'!A0"), "cell \"'+1+cmd|' /C calc'!A0\""),
    Row("export", "-2+3+cmd DDE payload", Cell("-2+3+cmd|' /C calc'!A0"), "cell \"'-2+3+cmd|' /C calc'!A0\""),
    Row("export", "@SUM formula", Cell("@SUM(A1:A9)"), "cell \"'@SUM(A1:A9)\""),
    Row("export", "leading tab", Cell("\t=1+1"), "cell \"'\\t=1+1\""),
    Row("export", "leading CR", Cell("\r=1+1"), "cell \"'\\r=1+1\""),
    Row("export", "a list item '- item'", Cell("- item"), "cell \"'- item\""),
    Row("export", "plain text", Cell("Reembolso em 7 dias"), "cell 'Reembolso em 7 dias'"),
    Row("export", "a negative score in a numeric column", Cell("-0.2500", numeric=True), "cell '-0.2500'"),
    Row("export", "a formula in a numeric column", Cell("-1+cmd|x", numeric=True), "cell \"'-1+cmd|x\""),
)

# Issue 24, round two: archives' member names, links and workspace files.
BAD_NAME_ZIP = zipped({"bom.txt": DOC, "café.txt": DOC}, ("café".encode(), b"caf\xc3("))
LONG = "n" * 65_000  # a member name of 65,000 characters: every echo of it is cut
LONG_NAMES_ZIP = zipped({f"{LONG}{n}.pdf": b"not a pdf" for n in range(3)} | {"bom.txt": DOC})
CUT = f"{'n' * 55}…{'n' * 19}"
BINARY_DOC = "the document looks binary, not text: it holds NUL or mostly control characters"


def workspace_json(document: str) -> bytes:
    from ragviz.share.workspace import Workspace

    return Workspace(document).to_json().encode()


ROWS += (
    Row("archive", "a member name flagged UTF-8 that is not UTF-8", cli("chunk a.zip", {"a.zip": BAD_NAME_ZIP}), "exit 0 · ragviz: skipped: A file in a.zip was skipped: its name 'caf\ufffd(.txt' is marked UTF-8 but is not."),
    Row("archive", "app: a member name flagged UTF-8 that is not UTF-8", Upload("a.zip", BAD_NAME_ZIP), "60 characters · warning: A file in a.zip was skipped: its name 'caf\ufffd(.txt' is marked UTF-8 but is not."),
    Row("archive", "three unreadable members named by 65,000 characters", cli("chunk a.zip", {"a.zip": LONG_NAMES_ZIP}), "exit 0 · " + "\n".join(f"ragviz: skipped: {CUT}{n}.pdf could not be read: it is named .pdf but its content is not a PDF." for n in range(3))),
    Row("document", "app: an upload over the character limit (1,000,001 characters)", Upload("long.txt", "é".encode() * 1_000_001), "error: The file long.txt has 1,000,001 characters; the limit is 1,000,000. Upload a shorter part of it."),
    Row("workspace", "a document of NUL characters only", WorkspaceFile(workspace_json("\x00" * 50)), f"error: {BINARY_DOC}"),
    Row("workspace", "a document of control characters only", WorkspaceFile(workspace_json("".join(map(chr, range(1, 9))) * 50)), f"error: {BINARY_DOC}"),
    Row("options", "sweep --sizes with a word among the numbers", cli("sweep doc.txt --questions q.csv --sizes 100,abc", qfile(HEADER + "Qual?,7 dias,true\n")), "exit 2 · ragviz sweep: argument --sizes: --sizes takes whole numbers separated by commas, e.g. 200, 400, 800; 'abc' is not one (see ragviz sweep --help)"),
    Row("options", "sweep --sizes with 13 sizes (the limit is 12)", cli("sweep doc.txt --questions q.csv --sizes 1,2,3,4,5,6,7,8,9,10,11,12,13", qfile(HEADER + "Qual?,7 dias,true\n")), "exit 2 · ragviz sweep: argument --sizes: --sizes: give at most 12 values (you gave 13), so the sweep stays short (see ragviz sweep --help)"),
    Row("options", "sweep --overlaps 95 (percent of the size)", cli("sweep doc.txt --questions q.csv --overlaps 0,95", qfile(HEADER + "Qual?,7 dias,true\n")), "exit 2 · ragviz sweep: argument --overlaps: overlaps are percents of the size, at most 90; 95 is too large (see ragviz sweep --help)"),
    Row("options", "sweep --rerank-depths without --rerank", cli("sweep doc.txt --questions q.csv --rerank-depths 5,10", qfile(HEADER + "Qual?,7 dias,true\n")), "exit 2 · ragviz sweep: --rerank-depths needs a reranker: add --rerank MODEL (e.g. --rerank sentence-max)"),
    Row("options", "sweep --scorers cosine,bm25 with a --floor (two scales)", cli("sweep doc.txt --questions q.csv --scorers cosine,bm25 --floor 0.3", qfile(HEADER + "Qual?,7 dias,true\n")), "exit 2 · ragviz sweep: --floor is on one scorer's scale: leave it out when sweeping several scorers (each then has no floor)"),
    Row("options", "sweep --scorers with an unknown scorer", cli("sweep doc.txt --questions q.csv --scorers cosine,nope", qfile(HEADER + "Qual?,7 dias,true\n")), "exit 2 · ragviz sweep: argument --scorers: unknown scorer 'nope': choose one of bm25, cosine, hybrid (see ragviz sweep --help)"),
    Row("options", "fixed windows of 150,000 characters every 10 (overlap 149,990)", cli("chunk doc.txt --chunker fixed --size 150000 --overlap 149990", doc(b"palavra " * 24_000)), "exit 2 · ragviz chunk: fixed(size=150000, overlap=149990) repeats the text too often: its chunks would hold about 630,150,000 characters, more than 20 times the document's 192,000; choose a smaller overlap (or size)."),
    Row("archive", "app: three unreadable members named by 65,000 characters", Upload("a.zip", LONG_NAMES_ZIP), "60 characters" + "".join(f" · warning: {CUT}{n}.pdf could not be read: it is named .pdf but its content is not a PDF." for n in range(3))),
)


def floor_set_on(model: str) -> bytes:
    """A workspace whose floor says it was set on ``model`` (issue 19, medium 4)."""
    from ragviz.share.workspace import Settings, Workspace

    data = json.loads(Workspace(DOC.decode(), (), Settings(model="minilm-en")).to_json())
    data["settings"]["floor_on"] = model
    return json.dumps(data).encode()


ROWS += (
    Row("workspace", "a floor said to be set on a path, not a model", WorkspaceFile(floor_set_on("../../etc")), "error: model '../../etc' is not a bundled model or a hub id (owner/name); local model folders are accepted only inside the folder RAGVIZ_MODELS_DIR names"),
)


def empty_chroma_zip() -> bytes:
    """A zipped Chroma directory whose one collection holds nothing."""
    import tempfile

    import chromadb

    with tempfile.TemporaryDirectory() as folder:
        chromadb.PersistentClient(path=folder).get_or_create_collection(
            "faq", embedding_function=None)
        files = {path.relative_to(folder).as_posix(): path.read_bytes()
                 for path in Path(folder).rglob("*") if path.is_file()}
    return zipped({f"db/{name}": data for name, data in files.items()})


NAN_LINE = b'{"text": "b", "embedding": [NaN, 1.0]}\n'
ROWS += (  # issue 21: the app's Index source
    Row("index", "app: a file of another type (a .txt)", IndexUpload("notes.txt", DOC), "error: notes.txt is not an index file: upload a .jsonl, .csv or .parquet export, or a zipped Chroma or Qdrant folder"),
    Row("index", "app: a zip that is not a Chroma directory", IndexUpload("notes.zip", zipped({"notes/a.txt": DOC})), "error: notes.zip is not a zipped Chroma or Qdrant folder: no folder in it holds chroma.sqlite3 or meta.json"),
    Row("index", "app: a zip whose member climbs out of its folder", IndexUpload("evil.zip", zipped({"db/chroma.sqlite3": b"x", "../../evil.txt": b"x"})), "error: evil.zip was refused: its entry '../../evil.txt' would land outside its folder"),
    Row("index", "a Chroma directory whose chroma.sqlite3 is not a database", cli("index chroma:db", {"db/chroma.sqlite3": b"garbage" * 100}), "exit 2 · ragviz index: db cannot be read as a Chroma directory (error returned from database: (code: 26) file is not a database)"),
    Row("index", "app: a zip whose chroma.sqlite3 is not a database", IndexUpload("bad.zip", zipped({"db/chroma.sqlite3": b"garbage" * 100})), "error: bad.zip cannot be read as a Chroma directory (error returned from database: (code: 26) file is not a database)"),
    Row("index", "app: a Chroma directory whose collection is empty", IndexUpload("empty.zip", empty_chroma_zip), "error: the collection 'faq' in empty.zip is empty"),
    Row("index", "app: a JSONL with a broken line among good ones", IndexUpload("x.jsonl", b'{"text": "a"}\n{broken\n'), "1 chunk · warning: x.jsonl line 2 is not valid JSON (Expecting property name enclosed in double quotes); it was left out"),
    Row("index", "app: a JSONL line whose vector holds NaN", IndexUpload("v.jsonl", b'{"text": "a", "embedding": [0.5, 1.0]}\n' + NAN_LINE), "1 chunk · warning: v.jsonl line 2: the stored vector holds NaN or infinite values; rebuild that chunk's vector; it was left out"),
    Row("index", "app: 10,001 chunks (over the app's limit)", IndexUpload("big.jsonl", b"".join(b'{"text": "c%d"}\n' % i for i in range(10_001))), "error: big.jsonl holds more than 10,000 chunks; the app loads at most 10,000: diagnose it with ragviz eval --index on the command line."),
    Row("index", "app: a Chroma server no variable allows", IndexServer("10.0.0.5:8000"), "error: This app reaches only the Chroma servers its administrator names in the environment variable RAGVIZ_CHROMA_HOSTS, and 10.0.0.5:8000 is not one of them: ask the administrator to add it (a shared app must not be a way into its network)."),
    Row("index", "app: a server the variable does not name (the allowed ones are not shown)", IndexServer("10.0.0.5:8000", "chroma.internal:8000"), "error: This app reaches only the Chroma servers its administrator names in the environment variable RAGVIZ_CHROMA_HOSTS, and 10.0.0.5:8000 is not one of them: ask the administrator to add it (a shared app must not be a way into its network)."),
    Row("index", "app: an address without a port", IndexServer("localhost"), "error: 'localhost' is not a server address: write host:port, e.g. localhost:8000."),
    Row("index", "app: an allowed server that never answers", IndexServer("127.0.0.1:PORT", "127.0.0.1"), "error: the Chroma server at 127.0.0.1:PORT does not answer (timed out); check the address and that the server runs"),
)


def parquet(columns: dict[str, object], dictionary_rows: int = 0) -> bytes:
    """A Parquet file of ``columns`` (zstd); with ``dictionary_rows`` its only text is
    repeated that many times through a dictionary (a bomb: 513 bytes for a gigabyte)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if dictionary_rows:
        columns = {name: pa.DictionaryArray.from_arrays(pa.array([0] * dictionary_rows, pa.int32()),
                                                        pa.array(values)) for name, values in columns.items()}
    out = io.BytesIO()
    pq.write_table(pa.table(columns), out, compression="zstd")
    return out.getvalue()


def parquet_twice() -> bytes:
    """A Parquet file whose two columns are both named ``text``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = io.BytesIO()
    pq.write_table(pa.Table.from_arrays([pa.array(["a"]), pa.array(["b"])], names=["text", "text"]), out)
    return out.getvalue()


PARQUET_BOMB = parquet({"text": ["x" * 1_000_000]}, dictionary_rows=1_000)
DEEP = "[" * 10_000 + "]" * 10_000
BOMB_SAID = "bomb.parquet row 1 holds a chunk of 1,000,000 characters; ragviz reads chunks of at most 200,000: split it before exporting."
ROWS += (  # issue 37: hostile chunk exports (tests/test_index_hostile_files.py)
    Row("index", "a 513-byte Parquet file that unpacks to 1 GB of text", cli("index bomb.parquet", {"bomb.parquet": PARQUET_BOMB}), f"exit 2 · ragviz index: {BOMB_SAID}"),
    Row("index", "the same Parquet bomb given to eval --index", cli("eval --index bomb.parquet --questions q.csv", {"bomb.parquet": PARQUET_BOMB, **qfile(HEADER + "prazo?,7 dias,yes\n")}), f"exit 2 · ragviz eval: {BOMB_SAID}"),
    Row("index", "app: the same Parquet bomb uploaded", IndexUpload("bomb.parquet", PARQUET_BOMB), f"error: {BOMB_SAID}"),
    Row("index", "a Parquet file of 1,000,000 rows (14 KB)", cli("index rows.parquet", {"rows.parquet": parquet({"text": ["a"] * 1_000_000})}), "exit 2 · ragviz index: rows.parquet holds more than 200,000 chunks, the most ragviz reads from one file: keep fewer chunks in the export, or load them into a Chroma index and use ragviz eval --index-mode database."),
    Row("index", "a JSONL of 200,001 chunks (refused before a line is parsed)", cli("index big.jsonl", {"big.jsonl": b'{"text": "c"}\n' * 200_001}), "exit 2 · ragviz index: big.jsonl holds more than 200,000 chunks, the most ragviz reads from one file: keep fewer chunks in the export, or load them into a Chroma index and use ragviz eval --index-mode database."),
    Row("index", "a Parquet text column of integers", cli("index ints.parquet", {"ints.parquet": parquet({"text": [1, 2]})}), "exit 2 · ragviz index: The column text of ints.parquet holds int64, not text: export the chunks' texts as strings."),
    Row("index", "a JSONL vector nested 10,000 deep", cli("index d.jsonl", {"d.jsonl": f'{{"text": "a"}}\n{{"text": "b", "embedding": {DEEP}}}\n'.encode()}, stdout_line=True), "exit 0 · stdout: d.jsonl line 2 nests lists or objects too deep to read; write that record flat; it was left out"),
    Row("index", "a CSV vector cell nested 10,000 deep", cli("index d.csv", {"d.csv": f'text,vector\na,[1.0]\nb,"{DEEP}"\n'.encode()}, stdout_line=True), "exit 0 · stdout: d.csv row 2 nests lists or objects too deep to read; write that record flat; it was left out"),
    Row("index", "a lone surrogate \\ud800 in a chunk's text", cli("index s.jsonl", {"s.jsonl": b'{"text": "a"}\n{"text": "b \\ud800"}\n'}, stdout_line=True), "exit 0 · stdout: s.jsonl line 2 holds a lone surrogate (an escape such as \\ud800 without its pair), which is not text; fix that record's text; it was left out"),
    Row("index", "a chunk of 200,001 characters", cli("index long.jsonl", {"long.jsonl": b'{"text": "' + b"x" * 200_001 + b'"}\n'}), "exit 2 · ragviz index: long.jsonl line 1 holds a chunk of 200,001 characters; ragviz reads chunks of at most 200,000: split it before exporting."),
    Row("index", "9 of 19 records without text", cli("index n.jsonl", {"n.jsonl": b'{"text": "a"}\n' * 10 + b'{"embedding": [1.0, 0.0]}\n' * 9}, stdout_line=True), "exit 0 · stdout: 9 of 19 records of n.jsonl have no text and were left out; export each chunk's text with its vector."),
    Row("index", "a JSONL of vectors without any text", cli("index v.jsonl", {"v.jsonl": b'{"embedding": [1.0, 0.0]}\n' * 3}), "exit 2 · ragviz index: None of the 3 records of v.jsonl has a text (page_content, text or document): export the chunks' texts with their vectors."),
    Row("index", "a CSV row of 515 cells under a header of 2", cli("index x.csv", {"x.csv": b"text,source\na,s\nb," + b",".join([b"z"] * 514) + b"\n"}, stdout_line=True), "exit 0 · stdout: x.csv row 2 has 515 cells where the header has 2; it was left out"),
    Row("index", "a Latin-1 CSV export", cli("index l.csv", {"l.csv": "text\nPolítica\nDevolução\n".encode("latin-1")}), "exit 2 · ragviz index: l.csv holds no readable chunk: l.csv row 1 is not UTF-8 text; save the file as UTF-8"),
    Row("index", "a UTF-16 JSONL export", cli("index w.jsonl", {"w.jsonl": '{"text": "a"}\n'.encode("utf-16")}), "exit 2 · ragviz index: w.jsonl is not UTF-8 text (it looks like UTF-16 or UTF-32): save it as UTF-8 and load it again."),
    Row("index", "JSONL lines that are not UTF-8 among good ones", cli("index b.jsonl", {"b.jsonl": b'{"text": "a"}\n{"text": "caf\xe9"}\n{"text": "\xff"}\n'}, stdout_line=True), "exit 0 · stdout: b.jsonl line 2 is not UTF-8 text; save the file as UTF-8; 2 records could not be read and were left out (this is the first)"),
    Row("index", "a .parquet file that is not Parquet", cli("index junk.parquet", {"junk.parquet": b"PAR1" + b"x" * 100 + b"PAR1"}), "exit 2 · ragviz index: junk.parquet cannot be read as Parquet (the file is damaged or not Parquet): export it again."),
    Row("index", "a Parquet file with two columns named text", cli("index dup.parquet", {"dup.parquet": parquet_twice()}), "exit 2 · ragviz index: dup.parquet has two columns named text: keep one and export it again."),
    Row("index", "a JSONL offset of 5,000 digits", cli("index o.jsonl", {"o.jsonl": b'{"text": "a"}\n{"text": "b", "metadata": {"start_index": ' + b"9" * 5_000 + b"}}\n"}, stdout_line=True), "exit 0 · stdout: o.jsonl line 2 holds a number of thousands of digits, which is no vector value or offset; it was left out"),
    Row("index", "a CSV quote never closed (17 MB)", cli("index q.csv", {"q.csv": b'text\n"open\n' + (b"x" * 999 + b"\n") * 17_000}), "exit 2 · ragviz index: q.csv breaks the CSV format near line 2: export it again as CSV (comma-separated, quotes closed, lines ending in LF or CRLF)."),
    Row("index", "a CSV whose second row's vector holds NaN", cli("index c.csv", {"c.csv": b'text,vector\na,"[1, 0]"\nb,"[NaN, 1]"\n'}, stdout_line=True), "exit 0 · stdout: c.csv row 2: the stored vector holds NaN or infinite values; rebuild that chunk's vector; it was left out"),
)


def corrupt_chroma_zip() -> bytes:
    """A zipped Chroma directory whose chroma.sqlite3 lost a table (issue 37, item 3)."""
    import sqlite3
    import tempfile

    import chromadb
    from chromadb.api.shared_system_client import SharedSystemClient

    with tempfile.TemporaryDirectory() as folder:
        chromadb.PersistentClient(path=folder).get_or_create_collection(
            "faq", embedding_function=None).add(ids=["a"], documents=["a"], embeddings=[[1.0, 0.0]])
        SharedSystemClient._identifier_to_refcount.pop(folder, None)
        SharedSystemClient._identifier_to_system.pop(folder).stop()
        with sqlite3.connect(Path(folder) / "chroma.sqlite3") as db:
            db.execute("DROP TABLE embeddings")
        db.close()
        files = {path.relative_to(folder).as_posix(): path.read_bytes()
                 for path in Path(folder).rglob("*") if path.is_file()}
    return zipped({f"db/{name}": data for name, data in files.items()})


def hnsw_overcounted_zip() -> bytes:
    """A zipped Chroma directory whose HNSW header (hnswlib's, after Chroma's version field)
    counts 100,000 vectors in a segment of 8: native code reading it dies by SIGSEGV
    (issue 37, item 3; the reader runs in a child process, which is what dies)."""
    import struct
    import tempfile

    import chromadb
    from chromadb.api.shared_system_client import SharedSystemClient

    with tempfile.TemporaryDirectory() as folder:
        chromadb.PersistentClient(path=folder).create_collection(
            "faq", embedding_function=None,
            configuration={"hnsw": {"sync_threshold": 2, "batch_size": 2}},
        ).add(ids=[f"c{n}" for n in range(8)], documents=[f"text {n}" for n in range(8)],
              embeddings=[[float(n), 1.0, 0.5, -1.0] for n in range(8)])
        SharedSystemClient._identifier_to_refcount.pop(folder, None)
        SharedSystemClient._identifier_to_system.pop(folder).stop()
        for header in Path(folder).rglob("header.bin"):
            data = bytearray(header.read_bytes())
            struct.pack_into("<Q", data, 4 + 2 * 8, 100_000)  # cur_element_count
            header.write_bytes(bytes(data))
        files = {path.relative_to(folder).as_posix(): path.read_bytes()
                 for path in Path(folder).rglob("*") if path.is_file()}
    return zipped({f"db/{name}": data for name, data in files.items()})


ROWS += (  # issue 37: Chroma directories, zips and servers against hostile input
    Row("index", "chroma: with an empty path", cli("index chroma:", {}), "exit 2 · ragviz index: chroma: needs a folder after it: write chroma:DIR, the folder that holds chroma.sqlite3"),
    Row("index", "a 0-byte chroma.sqlite3 (read on a copy: it stays 0 bytes)", cli("index chroma:db", {"db/chroma.sqlite3": b""}), "exit 2 · ragviz index: chroma:db holds no collection"),
    Row("index", "--timeout 0", cli("index chroma:db --timeout 0", {}), "exit 2 · ragviz index: argument --timeout: give a number of seconds from 0.1 to 3600, got '0' (see ragviz index --help)"),
    Row("index", "app: a zipped Chroma directory whose database lost a table", IndexUpload("lost.zip", corrupt_chroma_zip), "error: lost.zip cannot be read as a Chroma directory (Error executing plan: Internal error: error returned from database: (code: 1) no such table: embeddings)"),
    Row("index", "app: a zipped Chroma directory whose HNSW header counts 100,000 vectors in a segment of 8 (native code dies reading it)", IndexUpload("hnsw.zip", hnsw_overcounted_zip), "error: The Chroma index at hnsw.zip could not be read: its files are damaged (the reader stopped with signal 11); rebuild or restore the index."),
)

ROWS += (  # issue 34: the LLM's answer (a bad option is refused before any model work)
    Row("llm", "--llm without openai:", cli("search doc.txt --question prazo --llm gpt-4o"), "exit 2 · ragviz search: --llm takes openai:MODEL (e.g. openai:gpt-4o-mini, or openai:llama3.2 with --llm-base http://localhost:11434/v1), got 'gpt-4o'"),
    Row("llm", "--llm-base without http://", cli("search doc.txt --question prazo --llm openai:m --llm-base 127.0.0.1:11434/v1"), "exit 2 · ragviz search: the API base URL '127.0.0.1:11434/v1' must start with http:// or https:// and name a host (e.g. http://localhost:11434/v1); nothing was sent"),
    Row("llm", "--max-tokens without --llm", cli("search doc.txt --question prazo --max-tokens 10"), "exit 2 · ragviz search: these options need --llm openai:MODEL: --max-tokens; add --llm or leave them out"),
    Row("llm", "--max-tokens 0", cli("search doc.txt --question prazo --llm openai:m --max-tokens 0"), "exit 2 · ragviz search: argument --max-tokens: give a whole number from 1 to 9999999, got '0' (see ragviz search --help)"),
    Row("llm", "a prompt template without {context}", cli("search doc.txt --question prazo --llm openai:m --llm-base http://127.0.0.1:9/v1 --prompt-template t.txt", {"doc.txt": DOC, "t.txt": "Só {question}".encode()}), "exit 2 · ragviz search: the prompt template lacks {context}; put {context} where the excerpts go and {question} where the question goes"),
)

def hostile(args: str, pick: str = "", files: dict[str, bytes] | None = None) -> HostileCli:
    return HostileCli(tuple(shlex.split(args)), tuple((files or {"doc.txt": DOC}).items()), pick)


def _workspace_naming(model: str) -> dict[str, bytes]:
    from ragviz.chunking import ChunkerConfig
    from ragviz.share.workspace import Settings, Workspace

    fixed = ChunkerConfig("fixed", size=120, overlap=0)
    text = Workspace(DOC.decode(), (), Settings(config_a=fixed, config_b=fixed, model=model))
    return {"w.json": text.to_json().encode()}


ASK = "search doc.txt --question 'prazo do reembolso' --floor 0 --llm openai:m --llm-base ROOT"
EMBED = "search doc.txt --question prazo --model openai:m --api-base ROOT"
RERANK = "search doc.txt --question prazo --rerank api:m --rerank-base ROOT"
ROWS += (  # issue 42, the HTTP side: hostile chat, embedding and rerank servers, and workspaces
    Row("http", "a chat server echoing the key it got, and a bare URL", hostile(f"{ASK}/echo/v1", "LLM,"), "exit 0 · stdout: LLM, answered (the question has no label to judge it by): 'key I got: Bearer *** see http://evil.example/x'"),
    Row("http", "a chat server redirecting to another host", hostile(f"{ASK}/redirect/v1", "LLM,"), "exit 0 · stdout: LLM, no answer: the language model at ROOT/redirect/v1 answered with a redirect (HTTP 307) to localhost:PORT, which ragviz never follows: nothing was sent there; give the final base URL"),
    Row("http", "a chat server trickling a byte every 0.2 s", hostile(f"{ASK}/trickle/v1 --llm-timeout 1 --llm-no-stream", "LLM,"), "exit 0 · stdout: LLM, no answer: the language model at ROOT/trickle/v1 did not answer within 1 s; try again, raise --llm-timeout or choose a faster model"),
    Row("http", "a chat reply of 200 MB", hostile(f"{ASK}/flood/v1 --llm-no-stream", "LLM,"), "exit 0 · stdout: LLM, no answer: the language model at ROOT/flood/v1 sent more than 8 MB for one answer; ragviz stopped reading there (nothing of it was kept)"),
    Row("http", "a streamed chat reply of 200 MB", hostile(f"{ASK}/flood/v1 --llm-max-chars 3000", "cut at"), "exit 0 · stdout: the answer was cut at 3,000 characters (--llm-max-chars); the rest was not read"),
    Row("http", "a chat reply nested 100,000 deep", hostile(f"{ASK}/nest/v1 --llm-no-stream", "LLM,"), "exit 0 · stdout: LLM, no answer: the server at ROOT/nest/v1 answered, but not like an OpenAI chat API; check --llm-base (it usually ends in /v1)"),
    Row("http", "a chat reply whose choices are an object", hostile(f"{ASK}/choices-object/v1 --llm-no-stream", "LLM,"), "exit 0 · stdout: LLM, no answer: the server at ROOT/choices-object/v1 answered, but not like an OpenAI chat API; check --llm-base (it usually ends in /v1)"),
    Row("http", "a chat reply whose content is a number", hostile(f"{ASK}/content-number/v1 --llm-no-stream", "LLM,"), "exit 0 · stdout: LLM, no answer: the server at ROOT/content-number/v1 answered, but not like an OpenAI chat API; check --llm-base (it usually ends in /v1)"),
    Row("http", "a chat reply that is not UTF-8", hostile(f"{ASK}/bytes/v1 --llm-no-stream", "LLM,"), "exit 0 · stdout: LLM, no answer: the server at ROOT/bytes/v1 answered, but not like an OpenAI chat API; check --llm-base (it usually ends in /v1)"),
    Row("http", "a web page served as JSON", hostile(f"{ASK}/html/v1 --llm-no-stream", "LLM,"), "exit 0 · stdout: LLM, no answer: the server at ROOT/html/v1 answered, but not like an OpenAI chat API; check --llm-base (it usually ends in /v1)"),
    Row("http", "a chat reply with 100,000 choices", hostile(f"{ASK}/many-choices/v1 --llm-no-stream", "LLM,"), "exit 0 · stdout: LLM, no answer: the language model at ROOT/many-choices/v1 sent more than 8 MB for one answer; ragviz stopped reading there (nothing of it was kept)"),
    Row("http", "10^30 prompt tokens and -7,000,000 completion tokens", hostile(f"{ASK}/huge-tokens/v1 --llm-no-stream", "LLM openai"), "exit 0 · stdout: LLM openai:m @ ROOT/huge-tokens/v1: answer accuracy -, refusal precision -, recall -; 1 calls, 0 prompt + 0 completion tokens"),
    Row("http", "a reply whose message holds a refusal", hostile(f"{ASK}/refusal/v1 --llm-no-stream", "LLM,"), "exit 0 · stdout: LLM, refused by the LLM: \"Sorry, I won't answer.\""),
    Row("http", "an embedding server redirecting to another host", hostile(f"{EMBED}/redirect/v1"), "exit 2 · ragviz search: the embedding API at ROOT/redirect/v1 answered with a redirect (HTTP 307) to localhost:PORT, which ragviz never follows: nothing was sent there; give the final base URL"),
    Row("http", "an embedding reply nested 100,000 deep", hostile(f"{EMBED}/nest/v1"), "exit 2 · ragviz search: the server at ROOT/nest/v1 answered, but not like an OpenAI embeddings API; check the base URL (it usually ends in /v1)"),
    Row("http", "a rerank server redirecting to another host", hostile(f"{RERANK}/redirect"), "exit 2 · ragviz search: the rerank API at ROOT/redirect answered with a redirect (HTTP 307) to localhost:PORT, which ragviz never follows: nothing was sent there; give the final URL"),
    Row("http", "a rerank reply nested 100,000 deep", hostile(f"{RERANK}/nest"), "exit 2 · ragviz search: the rerank API at ROOT/nest did not answer JSON (is it a rerank server?)"),
    Row("http", "a rerank reply whose index is a nested list", hostile(f"{RERANK}/rerank-nested-results"), "exit 2 · ragviz search: the rerank API's answer is not one score per document (an index out of 0..0)"),
    Row("http", "a rerank reply of 200 MB", hostile(f"{RERANK}/flood"), "exit 2 · ragviz search: the rerank API at ROOT/flood sent more than 4 MB; ragviz stopped reading there and reranked nothing"),
    Row("http", "a workspace naming an API model, no --allow-api", cli("eval --workspace w.json", _workspace_naming("openai:m@http://127.0.0.1:9/v1")), "exit 2 · ragviz eval: the workspace names the API model 'openai:m@http://127.0.0.1:9/v1', which would receive the document, the questions and your key: nothing was sent; add --allow-api if you trust it"),
    Row("http", "a workspace naming a hub id not in the cache, no --allow-download", cli("eval --workspace w.json", _workspace_naming("ragviz-tests/absent-everywhere")), "exit 2 · ragviz eval: the model 'ragviz-tests/absent-everywhere' is not in the local cache and was named by a shared file: nothing was downloaded; add --allow-download to fetch it"),
)

ROWS += (  # issue 32 item 6: typed output
    Row("schema", "ragviz schema with a command that prints no JSON", cli("schema app"), "exit 2 · ragviz schema: there is no JSON output named 'app': give one of chunk, search, eval, calibrate, report, explain, compare, sweep, index, cache info, cache clear, questions, labels"),
)



class _RunsCode:
    """Unpickled, writes the file ``ran``: what a hostile Qdrant storage holds."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return exec, ("open('ran', 'w').write('ran')",)


def qdrant_storage(points: list[bytes], prefix: str = "") -> dict[str, bytes]:
    """qdrant-client's local storage of one collection ``docs`` whose rows hold ``points``
    (pickles), written with sqlite3 alone."""
    import sqlite3

    meta = {"collections": {"docs": {"vectors": {"size": 3, "distance": "Cosine"}}},
            "aliases": {}}
    database = sqlite3.connect(":memory:")
    database.execute("CREATE TABLE points (id TEXT PRIMARY KEY, point BLOB)")
    database.executemany("INSERT INTO points VALUES (?, ?)",
                         [(str(n), point) for n, point in enumerate(points)])
    database.commit()
    return {f"{prefix}meta.json": json.dumps(meta).encode(),
            f"{prefix}collection/docs/storage.sqlite": database.serialize()}


def long_point_storage() -> bytes:
    """A zipped Qdrant storage whose one point holds 200,001 characters."""
    from qdrant_client.models import PointStruct

    point = PointStruct(id=7, vector=[1.0, 0.0, 0.0], payload={"page_content": "x" * 200_001})
    return zipped(qdrant_storage([pickle.dumps(point)], "db/"))


RAN = qdrant_storage([pickle.dumps(_RunsCode())], "q/")
PG = "postgresql://postgres:S3cretPW"
ROWS += (  # issue 42: indexes, databases and scorer specs from someone else
    Row("index", "a Qdrant storage whose point is a pickle that runs code", cli("index qdrant:q", RAN), "exit 2 · ragviz index: q: row 1 of the collection docs is not a stored Qdrant point (it asks for builtins.exec); ragviz never runs what a storage folder holds, so the folder was not opened"),
    Row("index", "app: the same Qdrant storage zipped", IndexUpload("q.zip", zipped(RAN)), "error: q.zip: row 1 of the collection docs is not a stored Qdrant point (it asks for builtins.exec); ragviz never runs what a storage folder holds, so the folder was not opened"),
    Row("index", "app: a Qdrant point of 200,001 characters", IndexUpload("long.zip", long_point_storage), "error: long.zip: point 7 of the collection docs holds a chunk of 200,001 characters; ragviz reads chunks of at most 200,000: split it before indexing"),
    Row("index", "a Qdrant storage holding a link to /dev/zero", cli("index qdrant:q", RAN, links={"q/zero": "/dev/zero"}), "exit 2 · ragviz index: q holds a link that leaves the folder (zero): ragviz copies the folder before reading it and copies nothing from outside it; replace the link with the file"),
    Row("index", "a Chroma folder holding a link out of it (to /etc)", cli("index chroma:db", {"db/chroma.sqlite3": b""}, links={"db/etc": "/etc"}), "exit 2 · ragviz index: db holds a link that leaves the folder (etc): ragviz copies the folder before reading it and copies nothing from outside it; replace the link with the file"),
    Row("index", "a Chroma folder holding a dangling link", cli("index chroma:db", {"db/chroma.sqlite3": b""}, links={"db/gone": "nowhere"}), "exit 2 · ragviz index: db holds a link that leads nowhere or in a loop (gone): ragviz copies the folder before reading it and follows no such link; remove the link"),
    Row("index", "a Postgres password with %ZZ (libpq's parse error quotes it)", cli(f"index {PG}%ZZ@127.0.0.1:1/db", {}), "exit 2 · ragviz index: the Postgres connection string could not be read (invalid percent-encoded token: \"…\"): write it as postgresql://USER:PASSWORD@HOST:PORT/DBNAME, with %, spaces and other special characters of the password percent-encoded (%25, %20)"),
    Row("index", "a Postgres password with a space", cli(["index", f"{PG} x@127.0.0.1:1/db"], {}), "exit 2 · ragviz index: the Postgres connection string could not be read (unexpected spaces found in \"…\", use percent-encoded spaces (%20) instead): write it as postgresql://USER:PASSWORD@HOST:PORT/DBNAME, with %, spaces and other special characters of the password percent-encoded (%25, %20)"),
    Row("index", "a Postgres ?password=…%ZZ", cli("index postgresql://u@127.0.0.1:1/db?password=S3cretPW%ZZ", {}), "exit 2 · ragviz index: the Postgres connection string could not be read (invalid percent-encoded token: \"…\"): write it as postgresql://USER:PASSWORD@HOST:PORT/DBNAME, with %, spaces and other special characters of the password percent-encoded (%25, %20)"),
    Row("index", "a keyword connection string with a password", cli(["index", "host=127.0.0.1 password=S3cretPW"], {}), "exit 2 · ragviz index: host=127.0.0.1 password=*** does not exist"),
    Row("options", "a scorer with two rerank stages", cli(SEARCH + " --scorer cosine+rerank(sentence-max)+rerank(sentence-max)"), "exit 2 · ragviz search: the scorer 'cosine+rerank(sentence-max)+rerank(sentence-max)' has more than one rerank(...) stage or a parenthesis inside one: give one scorer and at most one stage, e.g. cosine+rerank(sentence-max)"),
    Row("options", "a scorer option given twice", cli(SEARCH + " --scorer hybrid(k=1,k=2)"), "exit 2 · ragviz search: the option k is given twice in 'hybrid(k=1,k=2)': keep one"),
    Row("options", "--floor 1e308 with bm25", cli(SEARCH + " --scorer bm25 --floor 1e308"), "exit 2 · ragviz search: the floor 1e+308 is off this scorer's scale: give a number from 0 to 1e+06"),
)

ROWS += (  # issue 42's last gaps: a slow but alive API ends the run at its budget (--api-budget)
    Row("http", "an embedding server slow but alive (each reply 0.6 s late) past the run's budget", hostile(f"{EMBED}/slow/v1 --api-budget 0.5"), "exit 2 · ragviz search: the embedding API at ROOT/slow/v1 was stopped: this run's 0.5 s for the embedding and rerank APIs are spent; raise --api-budget (RAGVIZ_API_BUDGET on a shared app) or choose a faster server"),
    Row("http", "a rerank server slow but alive (each reply 0.6 s late) past the run's budget", hostile(f"{RERANK}/slow --api-budget 0.5"), "exit 2 · ragviz search: the rerank API at ROOT/slow was stopped: this run's 0.5 s for the embedding and rerank APIs are spent; raise --api-budget (RAGVIZ_API_BUDGET on a shared app) or choose a faster server"),
)


def _cell_text(text: str) -> str:
    lines = [terminal_safe(line, keep="").replace("|", "\\|") for line in text.split("\n")]
    return "<br>".join(lines)


def render_markdown(rows: Sequence[Row] = ROWS) -> str:
    """The table as markdown, one row per case, with its tested outcome."""
    lines = [
        "# Bad inputs and what the user sees",
        "",
        f"{len(rows)} cases, each run by `tests/test_bad_inputs.py` against the real code; this "
        "file is generated from `tests/bad_inputs.py` (`python tests/bad_inputs.py`).",
        "",
        "| # | Area | Input | Interface | What the user sees |",
        "|---|---|---|---|---|",
    ]
    for number, row in enumerate(rows, start=1):
        seen = row.seen + (" (chunk offsets exact)" if row.offsets_exact else "")
        cells = (str(number), row.area, row.input, row.interface.describe(), seen)
        lines.append("| " + " | ".join(_cell_text(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    MARKDOWN.write_text(render_markdown(), encoding="utf-8")
    print(f"wrote {MARKDOWN} ({len(ROWS)} rows)")
