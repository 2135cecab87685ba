"""Zip archives whose member names are flagged UTF-8 but are not.

``zipfile`` decodes every name while it opens an archive, so one such name (bit 11 of the
entry's flags set, the bytes not UTF-8) stops the whole archive with a UnicodeDecodeError.
``mend_false_utf8`` clears that flag on exactly those entries of the central directory and
says which they are: the archive then opens, the other members load, and each misnamed one
gets its own sentence (its data is never read: its local header would not match).
"""

from __future__ import annotations

import struct

_END = b"PK\x05\x06"  # end of central directory record (22 bytes plus a comment)
_ENTRY = b"PK\x01\x02"  # a central directory entry (46 bytes plus name, extra, comment)
_MAX_COMMENT = 0xFFFF
_UTF8_FLAG = 0x800


def mend_false_utf8(data: bytes) -> tuple[bytes, frozenset[int]] | None:
    """The archive with the UTF-8 flag cleared where the name is not UTF-8, and those
    entries' positions in directory order (``ZipFile.infolist()`` order); None when the
    directory cannot be walked (a damaged or Zip64 archive: zipfile's own refusal stands)."""
    end = data.rfind(_END, max(0, len(data) - 22 - _MAX_COMMENT))
    if end < 0 or len(data) < end + 22:
        return None
    count, size = struct.unpack_from("<HI", data, end + 10)
    if count == 0xFFFF or size == 0xFFFFFFFF:
        return None
    mended = bytearray(data)
    misnamed: set[int] = set()
    position = end - size
    for index in range(count):
        if position < 0 or position + 46 > len(data) or data[position:position + 4] != _ENTRY:
            return None
        flags = struct.unpack_from("<H", data, position + 8)[0]
        name_length, extra_length, comment_length = struct.unpack_from("<3H", data, position + 28)
        name = data[position + 46:position + 46 + name_length]
        if flags & _UTF8_FLAG and not _is_utf8(name):
            struct.pack_into("<H", mended, position + 8, flags & ~_UTF8_FLAG)
            misnamed.add(index)
        position += 46 + name_length + extra_length + comment_length
    return bytes(mended), frozenset(misnamed)


def _is_utf8(name: bytes) -> bool:
    return name.decode("utf-8", "replace").encode("utf-8") == name  # a bad byte became U+FFFD


def shown_name(cp437_name: str) -> str:
    """A misnamed entry's name as it opened (cp437, which maps every byte), shown as its
    bytes read as UTF-8 with each bad byte replaced, so the user recognises the file."""
    return cp437_name.encode("cp437").decode("utf-8", "replace")
