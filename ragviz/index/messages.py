"""The index's words: its sentences are catalog keys under ``idx.`` (``ragviz/i18n/catalogs``),
raised as ``IndexInputError(key="idx.…", …)`` or given as ``Message("idx.…", …)`` values, and
said only where the CLI, the report or the app render them."""

from __future__ import annotations

from ragviz.i18n import Message

NONE = Message("value.none")  # an empty list in a sentence ("collections: none")
