"""A Streamlit session driven over its own websocket protocol, without a browser: what a
workshop participant's laptop costs the *server*, with none of the rendering on this machine.

A browser opening the app fetches the page and its static files, opens
``/_stcore/stream`` and sends a ``BackMsg.rerun_script`` with its query string; the server
runs the script and streams ``ForwardMsg`` deltas until ``script_finished``. Moving a
slider sends another ``rerun_script`` whose widget states hold the slider's new value.
This client does exactly that, with the protobuf classes that ship with Streamlit, so the
server does the same work as for a real browser (script run, deltas, Arrow datasets,
compression of the static files) while the client only parses the replies.

It sends the states of the widgets it changed, not all of them: a widget missing from the
states keeps its last value on the server (every widget the bench touches has a key).
"""

from __future__ import annotations

import asyncio
import re
import time
import urllib.parse
from typing import Any

import httpx
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ASSET_RE = re.compile(r'(?:src|href)="(\./static/[^"]+)"')


class ProtocolSession:
    """One app session: ``open`` (page, static files, first run), then ``set_slider``."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self.widget_ids: dict[str, str] = {}  # user key -> widget id, from the deltas
        self.charts = 0  # score charts seen in the current run
        self.states: dict[str, WidgetState] = {}
        self._ws: Any = None

    async def fetch_page(self, http: httpx.AsyncClient) -> int:
        """The index page and every static file it names, as a browser with an empty cache
        does (gzip accepted); returns the bytes received."""
        index = await http.get(self.url + "/", headers={"Accept-Encoding": "gzip"})
        index.raise_for_status()
        total = len(index.content)
        for path in ASSET_RE.findall(index.text):
            asset = await http.get(urllib.parse.urljoin(self.url + "/", path),
                                   headers={"Accept-Encoding": "gzip"})
            total += len(asset.content)
        return total

    async def connect(self) -> None:
        host = urllib.parse.urlparse(self.url).netloc
        ws_url = f"ws://{host}/_stcore/stream"
        self._ws = await websockets.connect(
            ws_url, subprotocols=["streamlit"],  # type: ignore[list-item]
            origin=f"http://{host}", max_size=None)  # type: ignore[arg-type]

    async def rerun(self, query: str = "") -> dict[str, float]:
        """Send one rerun with the widget states set so far; wait for its end. Returns the
        seconds to the first score chart (if any) and to ``script_finished``."""
        msg = BackMsg()
        msg.rerun_script.query_string = query
        msg.rerun_script.page_script_hash = ""
        for state in self.states.values():
            msg.rerun_script.widget_states.widgets.append(state)
        began = time.perf_counter()
        await self._ws.send(msg.SerializeToString())
        first_chart = None
        self.charts = 0
        while True:
            raw = await self._ws.recv()
            reply = ForwardMsg()
            reply.ParseFromString(raw)
            kind = reply.WhichOneof("type")
            if kind == "delta":
                self._note_delta(reply)
                if self.charts and first_chart is None:
                    first_chart = time.perf_counter() - began
            elif kind == "script_finished":
                if reply.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # the app asked for a rerun; wait for the run that follows
                done = time.perf_counter() - began
                return {"first_chart": first_chart if first_chart is not None else done,
                        "finished": done}

    def _note_delta(self, reply: ForwardMsg) -> None:
        delta = reply.delta
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "vega_lite_chart":
            self.charts += 1
            return
        widget = getattr(element, kind, None) if kind else None
        widget_id = getattr(widget, "id", "") if widget is not None else ""
        if isinstance(widget_id, str) and widget_id.startswith("$$ID-") and "-" in widget_id:
            key = widget_id.split("-", 2)[-1]
            if key and key != "None":
                self.widget_ids[key] = widget_id

    async def open(self, http: httpx.AsyncClient) -> dict[str, float]:
        """Page, static files, websocket and the first run: a page load."""
        began = time.perf_counter()
        await self.fetch_page(http)
        await self.connect()
        run = await self.rerun()
        fetched = time.perf_counter() - began - run["finished"]
        return {"first_chart": fetched + run["first_chart"],
                "finished": fetched + run["finished"]}

    async def set_slider(self, key: str, value: float) -> float:
        """Move the keyed slider to ``value``; seconds until the rerun finished."""
        state = WidgetState()
        state.id = self.widget_ids[key]
        state.double_array_value.data.append(value)
        self.states[key] = state
        return (await self.rerun())["finished"]

    async def set_text(self, key: str, value: str) -> dict[str, float]:
        """Set a keyed text widget or radio (both send their text) and rerun."""
        state = WidgetState()
        state.id = self.widget_ids[key]
        state.string_value = value
        self.states[key] = state
        return await self.rerun()

    async def click(self, key: str) -> dict[str, float]:
        """Press the keyed button and rerun (a button's press counts for one run)."""
        state = WidgetState()
        state.id = self.widget_ids[key]
        state.trigger_value = True
        self.states[key] = state
        try:
            return await self.rerun()
        finally:
            del self.states[key]

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()


async def smoke(url: str) -> None:
    """Open one session and move the floor once (``python bench/protocol_session.py URL``)."""
    async with httpx.AsyncClient(timeout=120) as http:
        session = ProtocolSession(url)
        print("open", await session.open(http), "charts", session.charts)
        print("floor keys", sorted(k for k in session.widget_ids if "floor" in k))
        print("move", await session.set_slider("floor", 0.2), "charts", session.charts)
        await session.close()


if __name__ == "__main__":
    import sys

    asyncio.run(smoke(sys.argv[1]))
