"""Test support: a deterministic question-writing chat model on 127.0.0.1, the chat server of
``tests/chat_server.py`` (same keys, streaming, faults) with one more rule in front of its
answering rule:

- a prompt holding a passage between the lines ``<<<`` and ``>>>`` (the question-writing
  template) is answered, reply after reply in turn, with: JSON in a ```json fence; a reply
  that is not JSON; JSON after a sentence; bare JSON. Each JSON reply holds, from the passage's
  sentences: a question whose excerpt is the sentence with its whitespace squashed, its
  quotes curled and its letters composed (NFC); a question whose excerpt was never in the
  passage (``INVENTED``); the question ``REPEATED`` (in every reply, the passage's first
  sentence its excerpt); and a give-away (the sentence itself as the question);
- a prompt asking for questions the documents do not answer (``"question"`` JSON, no
  passage) is answered with ``UNANSWERABLE`` (words no sample file holds) and one question
  built from the first file's opening words (which the corpus answers);
- any other prompt: the chat server's own rule (``chat_server.answer``).

Run: ``python tests/question_server.py --key KEY --model NAME``; prints ``PORT <n>``.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import chat_server

INVENTED = "This sentence was never written in any file of the corpus"
REPEATED = "What is this document mostly about?"
UNANSWERABLE = ("Can visitors pay with seashells at the zeppelin kiosk?",
                "Which harpsichord tuning does the lighthouse choir prefer?")
_PASSAGE = re.compile(r"^<<<\n(.*)\n>>>$", re.MULTILINE | re.DOTALL)
_TOPIC = re.compile(r"^- [^:\n]+: (.*)$", re.MULTILINE)
_SENTENCE = re.compile(r"[^.!?]*\w[^.!?]*[.!?]")
_turn = itertools.count()
_answer = chat_server.answer


def _curled(text: str) -> str:
    squashed = " ".join(text.split()).replace('"', "\u201c").replace("'", "\u2019")
    return unicodedata.normalize("NFC", squashed)


def _questions(passage: str) -> list[dict[str, object]]:
    sentences = [s.strip() for s in _SENTENCE.findall(passage) if len(s.split()) >= 4]
    if not sentences:
        return []
    out: list[dict[str, object]] = [{"question": REPEATED, "excerpts": [sentences[0]]}]
    for n, sentence in enumerate(sentences[:2]):
        topic = " ".join(re.findall(r"\w{6,}", sentence)[-2:]) or "it"
        out.append({"question": f"According to the help pages, how do things go with {topic} "
                                f"(point {n + 1})?", "excerpts": [_curled(sentence)]})
    out.append({"question": f"Where is it said that {INVENTED.lower()}?",
                "excerpts": [INVENTED + "."]})
    out.append({"question": sentences[-1].rstrip(".!?") + "?", "excerpts": [sentences[-1]]})
    return out


def _written(passage: str) -> str:
    body = json.dumps({"questions": _questions(passage)}, ensure_ascii=False)
    turn = next(_turn) % 4
    if turn == 0:
        return f"```json\n{body}\n```"
    if turn == 1:
        return "Sorry, I would rather talk about something else."
    if turn == 2:
        return f"Here are the questions you asked for:\n{body}"
    return body


def _unanswerable(prompt: str) -> str:
    openings = _TOPIC.findall(prompt)
    answered = " ".join(openings[0].split()[:8]) + "?" if openings else UNANSWERABLE[0]
    items = [{"question": q} for q in (*UNANSWERABLE, answered)]
    return json.dumps({"questions": items})


def answer(prompt: str) -> str:
    """The rules of the module's text."""
    passage = _PASSAGE.search(prompt)
    if passage is not None:
        return _written(passage.group(1))
    if '"question"' in prompt and _TOPIC.search(prompt):
        return _unanswerable(prompt)
    return _answer(prompt)


if __name__ == "__main__":
    chat_server.answer = answer
    chat_server.main()
