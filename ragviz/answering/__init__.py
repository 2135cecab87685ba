"""The answer itself: the built prompt sent to an OpenAI-compatible chat model (``chat``), the
template and its token budget (``prompt``), what the answer is worth (``verdict``), and every
question of an analysis asked in turn (``run``)."""
