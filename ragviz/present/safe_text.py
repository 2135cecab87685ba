"""Control characters made visible: what a terminal or a page shows of untrusted text.

ESC, BEL, backspace, CR, the C1 controls and the bidi embeddings, overrides and isolates
would move the cursor, recolour a terminal or show a question reversed ("idib live" for
"evil bidi"); each is written as its escape (``\\x1b``, ``\\u202e``) instead. The CLI prints
through it and the app's Markdown helper applies it to every piece of user text.
"""

from __future__ import annotations

import unicodedata

# Embedding, override and isolate marks: they reorder what is shown (Trojan Source).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def visible_controls(text: str, keep: str = "\n\t") -> str:
    """``text`` with every control character but those in ``keep`` shown as its escape."""
    return "".join(
        c if c in keep or not _is_control(c) else (f"\\x{ord(c):02x}" if ord(c) < 0x100
                                                   else f"\\u{ord(c):04x}")
        for c in text
    )


def _is_control(char: str) -> bool:
    return unicodedata.category(char) == "Cc" or char in BIDI_CONTROLS
