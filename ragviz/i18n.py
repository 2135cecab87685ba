"""Every interface string in English and Brazilian Portuguese, in one place.

``t(key, lang, **values)`` formats a string; a missing key or language is a bug, and a
test checks that every key has both languages.
"""

from __future__ import annotations

LANGUAGES: tuple[str, ...] = ("en", "pt")
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "pt": "Português (Brasil)"}

STRINGS: dict[str, dict[str, str]] = {
    # --- retrieval outcomes -------------------------------------------------------------
    "outcome.context": {"en": "context: chunks {chunks}", "pt": "contexto: chunks {chunks}"},
    "outcome.context_one": {"en": "context: chunk {chunks}", "pt": "contexto: chunk {chunks}"},
    "outcome.refused": {
        "en": "refused: best score {best} is under the floor {floor}",
        "pt": "recusada: o melhor score {best} está abaixo do piso {floor}",
    },
    # --- diagnosis (ragviz.diagnosis) ---------------------------------------------------
    # Diagnosis, calibration and why-failed (ragviz.diagnosis, .calibration, .evaluation).
    "diagnosis.ok_answered": {
        "en": (
            'Chunk {chunk} holds the answer "{answer}", ranks first with {score} and passes '
            "the floor {floor}."
        ),
        "pt": (
            'O chunk {chunk} contém a resposta "{answer}", fica em primeiro com {score} e '
            "passa o piso {floor}."
        ),
    },
    "diagnosis.ok_refused": {
        "en": (
            "The document does not answer this and retrieval refused it: the best score, "
            "{score} for chunk {chunk}, is under the floor {floor}."
        ),
        "pt": (
            "O documento não responde a isto e a busca recusou: o melhor score, {score} do "
            "chunk {chunk}, está abaixo do piso {floor}."
        ),
    },
    "diagnosis.ok_no_expected_answer": {
        "en": (
            "No expected answer is given, so only the floor is checked: chunk {chunk} ranks "
            "first with {score}, at or above the floor {floor}."
        ),
        "pt": (
            "Nenhuma resposta esperada foi dada, então só o piso é verificado: o chunk {chunk} "
            "fica em primeiro com {score}, no piso {floor} ou acima."
        ),
    },
    "diagnosis.answer_split": {
        "en": (
            'The answer "{answer}" straddles chunks {first} and {last}: no single chunk holds '
            "it, so no vector carries it whole."
        ),
        "pt": (
            'A resposta "{answer}" fica dividida entre os chunks {first} e {last}: nenhum '
            "chunk a contém inteira, então nenhum vetor a carrega completa."
        ),
    },
    "diagnosis.answer_truncated": {
        "en": (
            'The answer "{answer}" is in {chunks}, but beyond the model\'s token limit, so it '
            "cannot influence the vector."
        ),
        "pt": (
            'A resposta "{answer}" está em {chunks}, mas além do limite de tokens do modelo, '
            "então não influencia o vetor."
        ),
    },
    "diagnosis.outranked": {
        "en": (
            "Chunk {chunk} holds the answer but ranks {rank} with {score}, {gap} below the "
            'winner, chunk {winner} ({winner_score}), which is about "{about}".'
        ),
        "pt": (
            "O chunk {chunk} contém a resposta, mas fica em {rank}º com {score}, {gap} abaixo "
            'do vencedor, o chunk {winner} ({winner_score}), que fala de "{about}".'
        ),
    },
    "diagnosis.below_floor": {
        "en": (
            "Every score is under the floor {floor}: the best is {score} for chunk {chunk}, so "
            "the question is refused."
        ),
        "pt": (
            "Todos os scores estão abaixo do piso {floor}: o melhor é {score} do chunk {chunk}, "
            "então a pergunta é recusada."
        ),
    },
    "diagnosis.false_context": {
        "en": (
            "The document does not answer this, yet chunk {chunk} scores {score}, at or above "
            "the floor {floor}: the language model will be handed context and may invent an "
            "answer."
        ),
        "pt": (
            "O documento não responde a isto, mas o chunk {chunk} tem score {score}, no piso "
            "{floor} ou acima: o modelo de linguagem receberá contexto e pode inventar uma "
            "resposta."
        ),
    },
    "diagnosis.answer_not_in_document": {
        "en": (
            'The expected answer "{answer}" is not in the document, not even ignoring case, '
            "accents and spacing."
        ),
        "pt": (
            'A resposta esperada "{answer}" não está no documento, nem ignorando maiúsculas, '
            "acentos e espaços."
        ),
    },
    "diagnosis.chunk_one": {"en": "chunk {chunks}", "pt": "o chunk {chunks}"},
    "diagnosis.chunk_many": {"en": "chunks {chunks}", "pt": "os chunks {chunks}"},
    "calibration.separable": {
        "en": (
            "The groups separate: the lowest answerable best score is {lowest} and the highest "
            "unanswerable one is {highest}, so the floor {floor} sits between them with a "
            "margin of {margin}."
        ),
        "pt": (
            "Os grupos se separam: o menor melhor score das respondíveis é {lowest} e o maior "
            "das sem resposta é {highest}, então o piso {floor} fica entre eles com margem de "
            "{margin}."
        ),
    },
    "calibration.overlap": {
        "en": (
            "No floor separates the groups: the highest unanswerable best score ({highest}) "
            "reaches the lowest answerable one ({lowest}). The floor {floor} minimises the "
            "cost, with {false_refusals} false refusal(s) and {false_answers} false answer(s)."
        ),
        "pt": (
            "Nenhum piso separa os grupos: o maior melhor score das sem resposta ({highest}) "
            "alcança o menor das respondíveis ({lowest}). O piso {floor} minimiza o custo, com "
            "{false_refusals} recusa(s) indevida(s) e {false_answers} resposta(s) indevida(s)."
        ),
    },
    "why.already_ok": {
        "en": "This question is already answered right under {config}; nothing to fix.",
        "pt": "Esta pergunta já é respondida corretamente com {config}; nada a corrigir.",
    },
    "why.fix": {
        "en": (
            "{config} fixes it without breaking any of the {kept} other question(s) that are "
            "right now: {detail}"
        ),
        "pt": (
            "{config} corrige a pergunta sem quebrar nenhuma das {kept} outra(s) pergunta(s) "
            "que estão certas agora: {detail}"
        ),
    },
    "why.no_fix": {
        "en": (
            "No configuration in the sweep fixes this question without breaking another "
            "labelled question that is right now."
        ),
        "pt": (
            "Nenhuma configuração da varredura corrige esta pergunta sem quebrar outra pergunta "
            "rotulada que está certa agora."
        ),
    },
    # --- app interface (streamlit_app.py) -----------------------------------------------
    "chart.status_context": {"en": "sent as context", "pt": "enviado como contexto"},
    "chart.status_under_floor": {
        "en": "in top_k, under the floor",
        "pt": "no top_k, abaixo do piso",
    },
    "chart.status_other": {"en": "not retrieved", "pt": "não recuperado"},
    "chart.score": {"en": "cosine score", "pt": "score de cosseno"},
    "chart.floor": {"en": "floor {floor}", "pt": "piso {floor}"},
    "chart.offset": {"en": "character offset", "pt": "posição (caractere)"},
    "chart.similarity": {
        "en": "similarity to next sentence",
        "pt": "similaridade com a próxima frase",
    },
    "chart.threshold": {"en": "breakpoint {value}", "pt": "ponto de corte {value}"},
    "render.badge": {
        "en": "chunk #{i} · {n} chars · {tokens} tokens",
        "pt": "chunk #{i} · {n} caracteres · {tokens} tokens",
    },
    "render.badge_no_tokens": {"en": "chunk #{i} · {n} chars", "pt": "chunk #{i} · {n} caracteres"},
    "render.cut_word": {"en": "boundary cuts a word", "pt": "o corte parte uma palavra"},
    "render.cut_sentence": {"en": "boundary cuts a sentence", "pt": "o corte parte uma frase"},
    "render.legend_even": {"en": "even chunk", "pt": "chunk par"},
    "render.legend_odd": {"en": "odd chunk", "pt": "chunk ímpar"},
    "render.legend_overlap": {"en": "overlap (2+ chunks)", "pt": "sobreposição (2+ chunks)"},
    "render.legend_truncated": {
        "en": "not read by the model (past its token limit)",
        "pt": "não lido pelo modelo (além do limite de tokens)",
    },
}


def t(key: str, lang: str = "en", **values: object) -> str:
    """The string ``key`` in ``lang`` (falling back to English), formatted with ``values``."""
    entry = STRINGS[key]
    template = entry.get(lang) or entry["en"]
    return template.format(**values) if values else template


def pick_language(accept_language: str | None) -> str:
    """The interface language for a browser's Accept-Language / locale value."""
    if not accept_language:
        return "en"
    for part in accept_language.split(","):
        code = part.split(";")[0].strip().lower()
        if code.startswith("pt"):
            return "pt"
        if code.startswith("en"):
            return "en"
    return "en"
