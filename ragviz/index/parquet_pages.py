"""The sizes a Parquet file's pages declare, read from their headers before pyarrow decodes
any of them.

A footer's column sizes are what the writer says; each page's header says how many bytes
pyarrow will allocate to unpack it, and nothing makes the two agree: a 92 KB file whose footer
declares a few bytes can hold pages that unpack to a gigabyte. The page headers are read here
with a small reader of Thrift's compact protocol (the encoding Parquet's headers use), each
header within ``MAX_HEADER_BYTES``, and their ``uncompressed_page_size`` summed per column.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

MAX_HEADER_BYTES = 1 << 20  # a page header with its statistics (min/max values) at most
MAX_PAGES = 1_000_000  # pages walked in one file at most
_SMALL_WINDOW = 4_096  # the bytes read first for a header
_DEPTH = 32  # nested structures in a header at most
# Compact protocol types: 1/2 booleans, 3 byte, 4-6 integers, 7 double, 8 binary,
# 9 list, 10 set, 11 map, 12 struct.
_FIXED = {3: 1, 7: 8}
_VARINTS = (4, 5, 6)


class PageHeaderError(ValueError):
    """A page header that cannot be read (damaged, or past the limits above)."""


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise PageHeaderError("header cut short")
        self.at += 1
        return self.data[self.at - 1]

    def varint(self) -> int:
        value = shift = 0
        while True:
            part = self.byte()
            value |= (part & 0x7F) << shift
            if not part & 0x80:
                return value
            shift += 7
            if shift > 63:
                raise PageHeaderError("varint too long")

    def zigzag(self) -> int:
        value = self.varint()
        return (value >> 1) ^ -(value & 1)

    def skip(self, kind: int, depth: int) -> None:
        if depth > _DEPTH:
            raise PageHeaderError("nested too deep")
        if kind in (1, 2):
            return
        if kind in _FIXED:
            self.at += _FIXED[kind]
        elif kind in _VARINTS:
            self.varint()
        elif kind == 8:
            length = self.varint()  # read before ``at`` moves past it
            self.at += length
        elif kind in (9, 10):
            head = self.byte()
            size = head >> 4 if head >> 4 != 15 else self.varint()
            for _ in range(size):
                self.element(head & 0x0F, depth + 1)
        elif kind == 11:
            size = self.varint()
            types = self.byte() if size else 0
            for _ in range(size):
                self.element(types >> 4, depth + 1)
                self.element(types & 0x0F, depth + 1)
        elif kind == 12:
            self.struct(depth + 1)
        else:
            raise PageHeaderError(f"unknown type {kind}")
        if self.at > len(self.data):
            raise PageHeaderError("header cut short")

    def element(self, kind: int, depth: int) -> None:
        """One element of a list, set or map (a boolean there takes a byte of its own)."""
        if kind in (1, 2):
            self.byte()
        else:
            self.skip(kind, depth)

    def struct(self, depth: int, wanted: Iterable[int] = ()) -> dict[int, int]:
        """Skip a struct, keeping its integer fields whose ids are ``wanted``."""
        keep, field = set(wanted), 0
        found: dict[int, int] = {}
        while True:
            head = self.byte()
            kind = head & 0x0F
            if kind == 0:
                return found
            field = field + (head >> 4) if head >> 4 else self.zigzag()
            if field in keep and kind in _VARINTS:
                found[field] = self.zigzag()
            else:
                self.skip(kind, depth)


def column_unpacked_bytes(source: IO[bytes], start: int, length: int,
                          pages_left: list[int]) -> tuple[int, int]:
    """The bytes the pages of one column chunk (``length`` bytes from ``start``) declare they
    unpack to, and the largest page; ``pages_left`` holds the pages still allowed to be walked
    (shared across a file's columns)."""
    total = largest = 0
    at, end = start, start + length
    while at < end:
        pages_left[0] -= 1
        if pages_left[0] < 0:
            raise PageHeaderError("too many pages")
        reader, fields = _header(source, at)
        unpacked, packed = fields.get(2, -1), fields.get(3, -1)
        if unpacked < 0 or packed < 0:
            raise PageHeaderError("a page without its sizes")
        total += unpacked
        largest = max(largest, unpacked)
        at += reader.at + packed
    return total, largest


def _header(source: IO[bytes], at: int) -> tuple[_Reader, dict[int, int]]:
    """The page header at ``at`` (its uncompressed and compressed sizes), read in a small
    window first and in ``MAX_HEADER_BYTES`` only when its statistics need more."""
    for window in (_SMALL_WINDOW, MAX_HEADER_BYTES):
        source.seek(at)
        data = source.read(window)
        reader = _Reader(data)
        try:
            return reader, reader.struct(0, wanted=(2, 3))
        except PageHeaderError:
            if len(data) < window or window == MAX_HEADER_BYTES:
                raise
    raise PageHeaderError("unreachable")  # pragma: no cover

