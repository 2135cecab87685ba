"""The text of a Word document, read as a stream with bounded work.

python-docx builds the whole XML tree and a Python object per paragraph, so a small .docx
whose ``word/document.xml`` unpacks to hundreds of megabytes took minutes and gigabytes.
Here libxml2 (through lxml) parses the main part as it is decompressed, into a parser
target that keeps only the text of the paragraph, cell and row being read: memory is the
text itself, and reading stops at a byte budget (the unpacked XML) and a character budget
(the text). The text is the same as python-docx's for what it reads (paragraph ``text``,
table rows as ``" | "``-joined ``cell.text``, merged cells repeated as ``row.cells`` does);
``tests/test_bombs.py`` compares the two on documents made with python-docx.
"""

from __future__ import annotations

import posixpath
import zipfile
from dataclasses import dataclass, field

from lxml import etree

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_BODY = W + "body"
_BR = W + "br"
_CR = W + "cr"
_GRIDBEFORE = W + "gridBefore"
_GRIDSPAN = W + "gridSpan"
_HYPERLINK = W + "hyperlink"
_NOBREAKHYPHEN = W + "noBreakHyphen"
_P = W + "p"
_PTAB = W + "ptab"
_R = W + "r"
_T = W + "t"
_TAB = W + "tab"
_TBL = W + "tbl"
_TC = W + "tc"
_TCPR = W + "tcPr"
_TR = W + "tr"
_TYPE = W + "type"
_VMERGE = W + "vMerge"
_VAL = W + "val"
_RUN_TEXT = {_TAB: "\t", _PTAB: "\t", _CR: "\n", _NOBREAKHYPHEN: "-"}
_READ_BYTES = 1 << 16
MAX_RELS_BYTES = 1_000_000


class DocxLimitError(ValueError):
    """The document needs more work than allowed; ``kind`` is "xml-size" or "chars"."""

    def __init__(self, kind: str, limit: int) -> None:
        super().__init__(kind)
        self.kind = kind
        self.limit = limit


class DocxFormatError(ValueError):
    """Not a Word document, or its XML is malformed (also: too deep, entity tricks)."""


@dataclass
class _Cell:
    span: int = 1
    merged: bool = False  # vMerge="continue": the text is the cell's above
    paragraphs: list[str] = field(default_factory=list)


@dataclass
class _Row:
    grid_before: int = 0
    cells: list[_Cell] = field(default_factory=list)


class _BodyText:
    """Parser target: body-level paragraphs and the rows of body-level tables, in order.

    Depths count from w:document (0): body 1, its paragraphs and tables 2, rows 3, cells 4,
    a cell's properties 5 (their children 6) and paragraphs 5."""

    def __init__(self, max_chars: int) -> None:
        self.blocks: list[str] = []
        self.max_chars = max_chars
        self.chars = 0
        self._stack: list[str] = []
        self._paragraph: list[str] | None = None  # the text of the paragraph being read
        self._paragraph_depth = -1
        self._in_text = False
        self._cell: _Cell | None = None
        self._row: _Row | None = None
        self._above: dict[int, str] = {}  # grid column -> text of the row above (merges)

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        depth = len(self._stack)
        parent = self._stack[-1] if self._stack else ""
        self._stack.append(tag)
        if tag == _P and self._paragraph_counts(depth, parent):
            self._paragraph, self._paragraph_depth = [], depth
        elif self._paragraph is not None and parent == _R and self._run_counts(depth - 1):
            self._run_child(tag, attrib)
        elif tag == _TR and depth == 3 and parent == _TBL and self._in_body():
            self._row = _Row()
        elif tag == _TC and depth == 4 and self._row is not None:
            self._cell = _Cell()
        elif depth == 6 and self._cell is not None and parent == _TCPR:
            self._cell_property(tag, attrib)
        elif depth == 5 and self._row is not None and tag == _GRIDBEFORE:
            self._row.grid_before = _int(attrib.get(_VAL), 0)

    def data(self, text: str) -> None:
        if self._in_text:
            self._add(text)

    def end(self, tag: str) -> None:
        self._stack.pop()
        depth = len(self._stack)
        if tag == _T:
            self._in_text = False
        elif tag == _P and self._paragraph is not None and depth == self._paragraph_depth:
            self._end_paragraph()
        elif tag == _TC and depth == 4 and self._row is not None and self._cell:
            self._row.cells.append(self._cell)
            self._cell = None
        elif tag == _TR and depth == 3 and self._row is not None:
            self.blocks.append(self._row_text(self._row))
            self._row = None
        elif tag == _TBL and depth == 2:
            self._above = {}

    def close(self) -> list[str]:
        return self.blocks

    def doctype(self, *_: object) -> None:
        """A Word document never declares a DTD; one is only there for entity tricks."""
        raise DocxFormatError("a DTD in the document part")

    def _in_body(self) -> bool:
        return len(self._stack) > 1 and self._stack[1] == _BODY

    def _paragraph_counts(self, depth: int, parent: str) -> bool:
        """A body paragraph, or a paragraph straight inside a body-level table's cell."""
        if depth == 2:
            return parent == _BODY
        return depth == 5 and parent == _TC and self._cell is not None

    def _run_counts(self, run_depth: int) -> bool:
        """w:r straight in the paragraph, or in a w:hyperlink straight in it (as python-docx)."""
        owner = self._stack[run_depth - 1]
        if owner == _P:
            return run_depth - 1 == self._paragraph_depth
        return owner == _HYPERLINK and run_depth - 2 == self._paragraph_depth

    def _run_child(self, tag: str, attrib: dict[str, str]) -> None:
        if tag == _T:
            self._in_text = True
        elif tag == _BR:
            if attrib.get(_TYPE, "textWrapping") == "textWrapping":
                self._add("\n")
        elif tag in _RUN_TEXT:
            self._add(_RUN_TEXT[tag])

    def _cell_property(self, tag: str, attrib: dict[str, str]) -> None:
        assert self._cell is not None
        if tag == _GRIDSPAN:
            self._cell.span = max(1, _int(attrib.get(_VAL), 1))
        elif tag == _VMERGE:
            self._cell.merged = attrib.get(_VAL, "continue") == "continue"

    def _add(self, text: str) -> None:
        assert self._paragraph is not None
        self.chars += len(text)
        if self.chars > self.max_chars:
            raise DocxLimitError("chars", self.max_chars)
        self._paragraph.append(text)

    def _end_paragraph(self) -> None:
        assert self._paragraph is not None
        text = "".join(self._paragraph)
        if self._paragraph_depth == 5 and self._cell is not None:
            self._cell.paragraphs.append(text)
        elif text.strip():
            self.blocks.append(text)
        self._paragraph, self._paragraph_depth = None, -1

    def _row_text(self, row: _Row) -> str:
        """``" | ".join(cell.text for cell in row.cells)`` as python-docx gives it."""
        texts: list[str] = []
        column = row.grid_before
        for cell in row.cells:
            text = self._above.get(column, "") if cell.merged else "\n".join(cell.paragraphs)
            for _ in range(cell.span):
                self._above[column] = text
                texts.append(text)
                column += 1
        return " | ".join(texts)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def main_part(archive: zipfile.ZipFile) -> str:
    """The document part's name, from the package relationships (word/document.xml)."""
    target = ""
    try:
        with archive.open("_rels/.rels") as rels:
            data = rels.read(MAX_RELS_BYTES)
        parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
        for rel in etree.fromstring(data, parser):
            if str(rel.get("Type", "")).endswith("/officeDocument"):
                target = str(rel.get("Target", ""))
                break
    except (KeyError, etree.XMLSyntaxError):
        target = ""
    name = posixpath.normpath(target.lstrip("/")) if target else "word/document.xml"
    if name not in archive.namelist():
        raise DocxFormatError("no document part")
    return name


def docx_blocks(archive: zipfile.ZipFile, max_xml_bytes: int, max_chars: int) -> list[str]:
    """The paragraphs and table rows of the document, reading at most ``max_xml_bytes`` of
    its unpacked XML and ``max_chars`` of text (DocxLimitError past either)."""
    target = _BodyText(max_chars)
    parser = etree.XMLParser(target=target, resolve_entities=False, no_network=True,
                             load_dtd=False, huge_tree=False)
    read = 0
    try:
        with archive.open(main_part(archive)) as stream:
            while chunk := stream.read(_READ_BYTES):
                read += len(chunk)
                if read > max_xml_bytes:
                    raise DocxLimitError("xml-size", max_xml_bytes)
                parser.feed(chunk)
        blocks: list[str] = parser.close()
    except etree.XMLSyntaxError as error:
        raise DocxFormatError(str(error)) from None
    return blocks
