"""Which document the questions were written for, and the keep-or-clear offer a new document
makes (issue 45 item 5).

While the offer is open the previous document's questions wait (kept in the table, the
workspace and the link; not scored, not embedded); a question labelled on the new document
meanwhile (Check an answer) belongs to the new one: it is scored, and "Clear" leaves it."""

from __future__ import annotations

from collections.abc import Sequence

from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz_app import app_state as state
from ragviz_app.common import ss

DOCUMENT = "_questions_doc"  # the key of the document the table's questions were written for
# While the offer is open: (the new document's key, the keys of the questions labelled for it)
OFFER = "_questions_offer"
# A key no document has: a workspace's waiting questions were written for another document
ANOTHER_DOCUMENT = "another document"


def follows(owner: str | Corpus | None) -> bool:
    """Whether the questions were written for ``owner`` (a document, or an index's key);
    questions without a document (a CSV, a kept table, no questions at all) adopt it.
    False: the offer is open for ``owner``."""
    if owner is None:
        return True
    key = state.document_key(owner)
    if ss.get(DOCUMENT) is None or not len(ss.questions_base):
        ss[DOCUMENT] = key
    if ss[DOCUMENT] != key:
        offer = ss.get(OFFER)
        if offer is None or offer[0] != key:  # asked for this document: none of its own yet
            ss[OFFER] = (key, ())
        if waiting_count():
            return False
        ss[DOCUMENT] = key  # every question left was labelled on this document
    ss.pop(OFFER, None)
    return True


def belongs(document: str | Corpus | None) -> None:
    """The table's questions belong to ``document`` (None: to whatever document is in use)."""
    ss[DOCUMENT] = None if document is None else state.document_key(document)
    ss.pop(OFFER, None)


def wait_for(document: str, own: Sequence[LabelledQuestion]) -> None:
    """A workspace's waiting questions: the offer opens on ``document`` as it was when the
    workspace was exported, with ``own`` already the document's."""
    ss[DOCUMENT] = ANOTHER_DOCUMENT
    ss[OFFER] = (state.document_key(document), tuple(state.question_key(q.question) for q in own))


def mark_own(question: str) -> None:
    """A question labelled while the offer is open belongs to the new document."""
    offer = ss.get(OFFER)
    if offer is not None:
        ss[OFFER] = (offer[0], (*offer[1], state.question_key(question)))


def split(questions: Sequence[LabelledQuestion]) -> tuple[list[LabelledQuestion],
                                                          list[LabelledQuestion]]:
    """(the new document's own questions, the previous document's, waiting) while the
    offer is open."""
    own = set(ss.get(OFFER, ("", ()))[1])
    mine = [q for q in questions if state.question_key(q.question) in own]
    return mine, [q for q in questions if state.question_key(q.question) not in own]


def waiting_count() -> int:
    """How many of the table's questions wait for keep-or-clear."""
    own = set(ss.get(OFFER, ("", ()))[1])
    return sum(state.question_key(str(text or "")) not in own
               for text in ss.questions_base["question"])


def keep() -> None:
    """The user keeps the questions for the new document: they belong to it from now on."""
    belongs(None)


def clear_old() -> None:
    """The user clears the previous document's questions: only they go; the ones labelled
    on the new document stay (and belong to it)."""
    own = set(ss.get(OFFER, ("", ()))[1])
    base = ss.questions_base
    ss.questions_base = base[base["question"].map(
        lambda text: state.question_key(str(text or "")) in own)].reset_index(drop=True)
    ss.pop("questions_draft", None)
    ss.pop("questions_editor", None)
    belongs(None)
