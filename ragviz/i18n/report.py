"""The HTML report's and the command line's own words (``ragviz.present``, ``ragviz.cli``)."""

from __future__ import annotations

REPORT: dict[str, dict[str, str]] = {
    # --- HTML report (ragviz.present.report) ---------------------------------------------------
    "report.title": {"en": "ragviz report", "pt": "Relatório do ragviz"},
    "report.meta": {
        "en": "Model {model} · {chars} characters · {questions} questions · top_k {top_k} · floor {floor}",
        "pt": "Modelo {model} · {chars} caracteres · {questions} perguntas · top_k {top_k} · piso {floor}",
    },
    "report.metrics": {"en": "Metrics", "pt": "Métricas"},
    "report.labels": {"en": "Labels", "pt": "Rótulos"},
    "report.document": {"en": "Document and chunks", "pt": "Documento e chunks"},
    "report.chunk_count": {"en": "{n} chunks", "pt": "{n} chunks"},
    "report.questions": {"en": "Questions", "pt": "Perguntas"},
    "report.question": {"en": "Question", "pt": "Pergunta"},
    "report.expected": {"en": "expected", "pt": "esperado"},
    "report.prompt": {"en": "Prompt sent to the language model", "pt": "Prompt enviado ao modelo de linguagem"},
    "report.no_llm_call": {"en": "no LLM call (refused)", "pt": "sem chamada ao LLM (recusada)"},
    "report.calibration": {"en": "Calibration of the floor", "pt": "Calibração do piso"},
    "report.no_calibration": {
        "en": "Label at least one answerable and one unanswerable question to measure the floor.",
        "pt": "Rotule ao menos uma pergunta respondível e uma sem resposta para medir o piso.",
    },
    "report.flips": {"en": "Questions whose outcome flips", "pt": "Perguntas cujo resultado muda"},
    "report.no_flips": {"en": "No question changes outcome between the two configurations.", "pt": "Nenhuma pergunta muda de resultado entre as duas configurações."},
    "render.badge": {
        "en": "chunk #{i} · {n} chars · {tokens} tokens",
        "pt": "chunk #{i} · {n} caracteres · {tokens} tokens",
    },
    "render.badge_no_tokens": {"en": "chunk #{i} · {n} chars", "pt": "chunk #{i} · {n} caracteres"},
    "render.cut_word": {"en": "boundary cuts a word", "pt": "o corte parte uma palavra"},
    "render.cut_sentence": {"en": "boundary cuts a sentence", "pt": "o corte parte uma frase"},
    "render.context_label": {"en": "context", "pt": "contexto"},
    "render.context_title": {
        "en": "embedded with chunk #{i} but not in its slice (the table's header)",
        "pt": "embutido com o chunk #{i}, mas fora do seu trecho (o cabeçalho da tabela)",
    },
    "render.legend_context": {
        "en": "context embedded with a chunk, not in its slice",
        "pt": "contexto embutido com um chunk, fora do seu trecho",
    },
    "render.legend_even": {"en": "even chunk", "pt": "chunk par"},
    "render.legend_odd": {"en": "odd chunk", "pt": "chunk ímpar"},
    "render.legend_overlap": {"en": "overlap (2+ chunks)", "pt": "sobreposição (2+ chunks)"},
    "render.legend_truncated": {
        "en": "not read by the model (past its token limit)",
        "pt": "não lido pelo modelo (além do limite de tokens)",
    },
}
