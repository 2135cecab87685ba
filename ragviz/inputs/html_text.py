"""The text of an HTML page (inscriptis on lxml's tree), and whether some of it was too deep.

libxml2's HTML parser stops descending at 256 nested elements and drops what lies deeper
without an error; inscriptis then reads the rest, so text was lost without a word. Parsing
here keeps the parser's error log, so the caller can say what was left out.
"""

from __future__ import annotations

import re

MAX_DEPTH = 255  # elements libxml2 nests before it drops the rest (without XML_PARSE_HUGE)
_XML_DECLARATION = re.compile(r"^<\?xml [^>]*\?>", re.IGNORECASE)


def html_text(content: str) -> tuple[str, bool]:
    """The page's text as inscriptis gives it, and True when nesting cut some of it off."""
    from inscriptis import Inscriptis
    from lxml.etree import ParserError
    from lxml.html import HTMLParser, document_fromstring

    content = _XML_DECLARATION.sub("", content.strip(), count=1)
    if not content:
        return "", False
    parser = HTMLParser()
    try:
        tree = document_fromstring(content, parser=parser)
    except ParserError:
        tree = document_fromstring("<pre>" + content + "</pre>", parser=parser)
    too_deep = any("excessive depth" in error.message.lower() for error in parser.error_log)
    return Inscriptis(tree).get_text(), too_deep
