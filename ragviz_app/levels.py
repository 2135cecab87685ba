"""Two levels of one page (issue 44.2). By default, what a teacher and a support agent
need: the language, the replay, the source, the questions, each configuration's chunker
and size, top_k and the floor, the check-an-answer entry, the outcome in words and the
bars. The rest (gear menus, models, scorers and rerankers, overlaps and typed boxes, the
LLM, the other tabs, workspace files) waits behind one visible switch, "More controls",
which the link and the workspace remember.

The second level's widgets are drawn on both levels and hidden by style on the first: a
widget the page leaves out loses its state in the browser (issue 44.1), so hiding keeps
every value and every callback exactly as it is, and turning the switch on shows them as
they were. Hidden elements are not visible, focusable nor read by a screen reader.
"""

from __future__ import annotations

import streamlit as st

from ragviz.chunking import get_spec
from ragviz_app.common import ss, tr

KEY = "more_controls"  # the switch's session key (and a PERSISTENT input)
MORE = "adv_"  # a container keyed ``adv_<name>`` shows on the second level only
FIRST_TAB = "questions"  # the one view of the first level

# On the first level: the second level's containers, the tab bar (one view), the typed
# boxes beside the sliders (and the column they take), the help icons, the headings' link
# anchors and the charts' toolbars (not the question table's: its Add row) are hidden.
FIRST_LEVEL_CSS = """<style>
[class*="st-key-adv_"],.st-key-tab [role="tablist"],[data-testid="stTooltipIcon"],
[class*="st-key-prompt_questions_"],
[data-testid="stHeaderActionElements"],
[data-testid="stElementContainer"]:has([data-testid="stVegaLiteChart"])
 [data-testid="stElementToolbar"],
[data-testid="stColumn"]:has(> [data-testid="stVerticalBlock"] > [class*="st-key-typed_a_"],
> [data-testid="stVerticalBlock"] > [class*="st-key-typed_b_"],
> [data-testid="stVerticalBlock"] > [data-testid="stLayoutWrapper"]
> [class*="st-key-adv_col_"]){display:none}
[class*="st-key-config_params_"] [data-testid="stColumn"]{flex:1 1 0;width:auto}
</style>"""


def more() -> bool:
    """Whether the second level is on."""
    return bool(ss.get(KEY, False))


def switch() -> None:
    """The one switch, and (on the first level) what it brings, so the other views are
    reachable from the first screen."""
    st.toggle(tr("app.more_controls"), key=KEY, on_change=_on_switch)
    if not more():
        st.caption(tr("app.more_controls_note"))
        st.html(FIRST_LEVEL_CSS)


def _on_switch() -> None:
    """Back to the first level: its one view opens (a hidden tab open would show nothing
    the user can leave)."""
    if not more():
        ss.tab_id = FIRST_TAB
        ss["tab"] = tr(f"tab.{FIRST_TAB}")


def open_with(uses_advanced: bool, tab_id: str | None) -> None:
    """A link or a workspace that uses a second-level setting, or opens another view than
    the first, turns the switch on (never off: a link does not hide what a user opened)."""
    if uses_advanced or (tab_id is not None and tab_id != FIRST_TAB):
        ss[KEY] = True


def first_level_param(chunker: str, name: str) -> bool:
    """A chunker's size (its first parameter) is on the first level; the others (overlap,
    thresholds) on the second."""
    params = get_spec(chunker).params
    return bool(params) and params[0].name == name


def second(name: str) -> st.delta_generator.DeltaGenerator:
    """A container shown on the second level only."""
    return st.container(key=f"{MORE}{name}")
