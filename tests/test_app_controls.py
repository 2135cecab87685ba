"""The sidebar's and the configurations' controls (issue 36, low): a box to type the number
of a slider over a wide range, the chunker select's label and whole names, the upload limit
and the parameter names said in the page's language."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from ragviz.chunking import CHUNKER_NAMES, get_spec
from ragviz.i18n import t
from ragviz.inputs.documents import MAX_UPLOAD_BYTES
from ragviz.share.workspace import MAX_WORKSPACE_BYTES
from ragviz_app.frame import chunker_title
from ragviz_app.main import LAYOUT_CSS
from ragviz_app.views.copy_link import BUTTON_CLASS, button_html
from tests.test_app import APP, TIMEOUT, open_tab, rerun, run_app

# A chunker name the select shows whole at 1280x800 (checked on a screenshot): 26 characters.
WHOLE_NAME = 26


def test_a_wide_slider_has_a_box_that_follows_it_both_ways() -> None:
    """Sliders over 1-4,000 had no box to type a number in."""
    at = run_app(tab=None)
    at.slider(key="a_size").set_value(300)
    rerun(at)
    assert at.number_input(key="typed_a_size").value == 300  # the box follows the slider
    at.number_input(key="typed_a_size").set_value(508)
    rerun(at)
    assert at.slider(key="a_size").value == 508  # the slider follows the box
    assert "fixed(size=508, overlap=0)" in " ".join(c.value for c in at.caption)
    at.slider(key="a_size").set_value(121)
    rerun(at)
    assert at.number_input(key="typed_a_size").value == 121  # the typed value is not put back
    assert not [n for n in at.number_input if n.key == "typed_a_overlap_sentences"]


def test_the_chunker_select_has_a_label_and_whole_names() -> None:
    at = run_app(tab=None)
    select = at.selectbox(key="a_chunker")
    assert select.label == "Chunker" and select.proto.label_visibility.value == 0  # visible
    titles = [chunker_title(name) for name in CHUNKER_NAMES]
    assert len(set(titles)) == len(titles)
    assert max(len(title) for title in titles) <= WHOLE_NAME, titles
    assert chunker_title("langchain_recursive") == "LangChain · Recursive"
    assert all(title.split(" ")[0] == get_spec(name).title.split(" ")[0]
               for name, title in zip(CHUNKER_NAMES, titles, strict=True))


def portuguese() -> AppTest:
    at = run_app(tab=None)
    at.selectbox(key="lang").select("pt")
    return rerun(at)


def test_portuguese_names_max_chars_as_the_summary_does() -> None:
    """The slider said "max_chars (caracteres)", the summary under it "máx_caracteres"."""
    at = portuguese()
    labels = [c.value for c in at.caption if c.value.startswith(("máx_", "max_"))]
    # the name says its unit: no "(caracteres)" after it, so it fits its column at 1280x800;
    # a zero-width space after the underscore lets a narrow column break it there, not mid-word
    assert labels == ["máx_\u200bcaracteres"], labels
    assert any("sentence(máx_caracteres=220" in c.value for c in at.caption)


def test_the_upload_limit_is_said_in_the_pages_language() -> None:
    """The uploader's own line said "60MB per file" (the server's cap, in English): the real
    limits are said under it, in the page's language."""
    at = portuguese()
    at.radio(key="doc_source").set_value("upload")
    rerun(at)
    megabytes = f"{MAX_UPLOAD_BYTES / 1e6:g} MB"
    limits = [c.value for c in at.sidebar.caption if megabytes in c.value]
    assert limits and "por arquivo" in limits[0] and "1.000.000" in limits[0], limits


def test_every_uploader_says_its_limit_in_the_pages_language() -> None:
    """The questions file, the index file and its source files showed only Streamlit's
    English "60MB per file"; each says its own limit in Portuguese, the same line hidden."""
    at = portuguese()
    megabytes = f"{MAX_UPLOAD_BYTES / 1e6:g} MB"
    assert any(c.value == f"Até {megabytes}." for c in at.caption), "questions file"
    at.radio(key="doc_source").set_value("index")
    rerun(at)
    captions = [c.value for c in at.sidebar.caption]
    assert any(c.startswith("Até ") and c.endswith(" MB por arquivo.") for c in captions), captions
    assert any(megabytes in c and "1.000.000" in c for c in captions), captions  # the sources
    for key in ("questions_upload", "index_upload", "index_sources"):
        assert f".st-key-{key} [data-testid=\"stFileUploaderDropzoneInstructions\"]" in LAYOUT_CSS


# --- the link keeps the open tab; "Copy link" ------------------------------------------------


def query_value(at: AppTest, key: str) -> str | None:
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def test_the_link_keeps_the_open_tab_and_reopens_it() -> None:
    """A link did not keep the open tab."""
    at = run_app(tab="calibration")
    assert query_value(at, "tab") == "calibration"
    link = {key: str(query_value(at, key)) for key in at.query_params}
    opened = AppTest.from_file(APP, default_timeout=TIMEOUT)
    opened.query_params.update(link)
    rerun(opened)
    assert opened.session_state.tab == t("tab.calibration", "en")  # the open tab
    at = open_tab(at, "questions")  # the first tab: no parameter
    assert query_value(at, "tab") is None


def test_the_share_panel_has_a_copy_link_button_in_the_pages_language() -> None:
    at = portuguese()
    buttons = [h.proto.body for h in at.sidebar.get("html") if BUTTON_CLASS in h.proto.body]
    assert len(buttons) == 1 and ">Copiar link</button>" in buttons[0]
    assert "Link copiado" in buttons[0] and "window.location.href" in buttons[0]


def test_the_copy_link_words_cannot_become_markup() -> None:
    made = button_html('Copy "<b>link</b>"', "done</script>", "x'y", "<i>help</i>")
    assert "<b>" not in made and "</script>\"" not in made and "<i>" not in made
    assert made.count("</script>") == 1  # the script's own end only


def test_sliders_write_the_pages_decimal_sign() -> None:
    """Portuguese sliders said 0.19 beside charts saying 0,19: the page carries the script
    that writes its language's decimal sign into the sliders' numbers (run in Chromium by
    tests/browser/test_layout_browser.py)."""
    at = portuguese()
    scripts = [h.proto.body for h in at.sidebar.get("html") if "rvDecimalSign" in h.proto.body]
    assert len(scripts) == 1 and 'window.rvDecimalSign = ",";' in scripts[0]
    at.selectbox(key="lang").select("en")
    rerun(at)
    scripts = [h.proto.body for h in at.sidebar.get("html") if "rvDecimalSign" in h.proto.body]
    assert len(scripts) == 1 and 'window.rvDecimalSign = ".";' in scripts[0]


def test_the_workspace_importer_says_its_own_limit() -> None:
    """Its uploader said the server's cap ("60MB per file", in English), not the workspace's."""
    at = portuguese()
    limits = [c.value for c in at.sidebar.caption if "exportado pelo ragviz" in c.value]
    assert limits == ["Um arquivo .json exportado pelo ragviz, de até 0,9 MB."]
    assert MAX_WORKSPACE_BYTES == 900_000
