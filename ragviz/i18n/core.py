"""The core's facts in both languages: outcomes, input limits, diagnosis, calibration,
labels, parameter and metric names, counts and the errors any stage raises (by key).

Sentences about what the pipeline found, so every display (app, CLI, report) says them alike.
"""

from __future__ import annotations

CORE: dict[str, dict[str, str]] = {
    # --- retrieval outcomes -------------------------------------------------------------
    "outcome.context": {"en": "context: chunks {chunks}", "pt": "contexto: chunks {chunks}"},
    "outcome.context_one": {"en": "context: chunk {chunks}", "pt": "contexto: chunk {chunks}"},
    "outcome.refused": {
        "en": "refused: best score {best} is under the floor {floor}",
        "pt": "recusada: o melhor score {best} está abaixo do piso {floor}",
    },
    "chunking.too_many_chars": {
        "en": "{config} repeats the text too often: its chunks would hold about {n} characters, more than {times} times the document's {corpus}; choose a smaller overlap (or size).",
        "pt": "{config} repete o texto vezes demais: seus chunks teriam cerca de {n} caracteres, mais de {times} vezes os {corpus} do documento; escolha uma sobreposição (ou um tamanho) menor.",
    },
    # --- input limits (ragviz.inputs.documents) -----------------------------------------------
    "input.empty_document": {
        "en": "The document is empty: paste text, upload a .txt or .md file, or pick a sample.",
        "pt": "O documento está vazio: cole um texto, envie um arquivo .txt ou .md, ou escolha um exemplo.",
    },
    "input.long_document": {
        "en": "The document has {n} characters; the limit is {limit}. Paste a shorter part.",
        "pt": "O documento tem {n} caracteres; o limite é {limit}. Cole um trecho menor.",
    },
    "input.long_upload": {
        "en": "The file {name} has {n} characters; the limit is {limit}. Upload a shorter part of it.",
        "pt": "O arquivo {name} tem {n} caracteres; o limite é {limit}. Envie um trecho menor dele.",
    },
    "input.big_upload": {
        "en": "The file {name} has {n} bytes ({mb} MB); the limit is {limit} bytes ({limit_mb} MB).",
        "pt": "O arquivo {name} tem {n} bytes ({mb} MB); o limite é {limit} bytes ({limit_mb} MB).",
    },
    "input.binary_upload": {
        "en": "The file {name} looks binary, not text: upload a .txt or .md file.",
        "pt": "O arquivo {name} parece binário, não texto: envie um arquivo .txt ou .md.",
    },
    "input.undecodable": {
        "en": "The file could not be read as text in UTF-8, Windows-1252 or Latin-1.",
        "pt": "Não foi possível ler o arquivo como texto em UTF-8, Windows-1252 ou Latin-1.",
    },
    # --- diagnosis (ragviz.evaluation.diagnosis) ---------------------------------------------------
    # Diagnosis, calibration and why-failed (ragviz.evaluation.diagnosis, .calibration, .evaluation).
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
    "diagnosis.ok_refused_files": {
        "en": (
            "No file answers this and retrieval refused it: the best score, {score} for chunk "
            "{chunk}, is under the floor {floor}."
        ),
        "pt": (
            "Nenhum arquivo responde a isto e a busca recusou: o melhor score, {score} do "
            "chunk {chunk}, está abaixo do piso {floor}."
        ),
    },
    "diagnosis.false_context_files": {
        "en": (
            "No file answers this, yet chunk {chunk} scores {score}, at or above the floor "
            "{floor}: the language model will be handed context and may invent an answer."
        ),
        "pt": (
            "Nenhum arquivo responde a isto, mas o chunk {chunk} tem score {score}, no piso "
            "{floor} ou acima: o modelo de linguagem receberá contexto e pode inventar uma "
            "resposta."
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
    "diagnosis.outranked_by_other_document": {
        "en": (
            "Chunk {chunk} of {source} holds the answer but ranks {rank} with {score}, {gap} "
            "below the winner, chunk {winner} of another file, {winner_source} "
            '({winner_score}), which is about "{about}".'
        ),
        "pt": (
            "O chunk {chunk} de {source} contém a resposta, mas fica em {rank}º com {score}, "
            "{gap} abaixo do vencedor, o chunk {winner} de outro arquivo, {winner_source} "
            '({winner_score}), que fala de "{about}".'
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
    "diagnosis.answer_below_floor": {
        "en": (
            "Chunk {chunk} holds the answer and ranks {rank}, inside top_k = {top_k}, but "
            "scores {score}, {gap} under the floor {floor}: the floor keeps it out of the "
            "context. Lower the floor; a larger top_k changes nothing."
        ),
        "pt": (
            "O chunk {chunk} contém a resposta e fica em {rank}º, dentro do top_k = {top_k}, "
            "mas tem score {score}, {gap} abaixo do piso {floor}: o piso o deixa fora do "
            "contexto. Baixe o piso; um top_k maior não muda nada."
        ),
    },
    "diagnosis.answer_below_floor_outside": {
        "en": (
            "Its score {score} is also {gap} under the floor {floor}: a larger top_k alone "
            "would not bring chunk {chunk} into the context."
        ),
        "pt": (
            "O score dele, {score}, também fica {gap} abaixo do piso {floor}: só aumentar o "
            "top_k não traria o chunk {chunk} ao contexto."
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
    "diagnosis.answer_not_in_any_file": {
        "en": (
            'The expected answer "{answer}" is not in any of the {files} files, not even '
            "ignoring case, accents and spacing."
        ),
        "pt": (
            'A resposta esperada "{answer}" não está em nenhum dos {files} arquivos, nem '
            "ignorando maiúsculas, acentos e espaços."
        ),
    },
    "diagnosis.chunk_one": {"en": "chunk {chunks}", "pt": "o chunk {chunks}"},
    "diagnosis.chunk_many": {"en": "chunks {chunks}", "pt": "os chunks {chunks}"},
    # --- display names of diagnosis labels and parameters (ragviz.present.presentation) --------
    "label.ok": {"en": "ok", "pt": "ok"},
    "label.answer-split": {"en": "answer-split", "pt": "resposta-dividida"},
    "label.answer-truncated": {"en": "answer-truncated", "pt": "resposta-truncada"},
    "label.outranked": {"en": "outranked", "pt": "superada"},
    "label.outranked-by-other-document": {
        "en": "outranked-by-other-document", "pt": "superada-por-outro-documento"
    },
    "label.below-floor": {"en": "below-floor", "pt": "abaixo-do-piso"},
    "label.false-context": {"en": "false-context", "pt": "contexto-falso"},
    "label.answer-not-in-document": {
        "en": "answer-not-in-document", "pt": "resposta-fora-do-documento"
    },
    "label.stale-chunk": {"en": "stale-chunk", "pt": "trecho-desatualizado"},
    "label.vector-mismatch": {"en": "vector-mismatch", "pt": "vetor-divergente"},
    "label.duplicate-crowding": {"en": "duplicate-crowding", "pt": "duplicatas-no-top-k"},
    "param_name.size": {"en": "size", "pt": "tamanho"},
    "param_name.overlap": {"en": "overlap", "pt": "sobreposição"},
    "param_name.max_chars": {"en": "max_chars", "pt": "máx_caracteres"},
    "param_name.overlap_sentences": {"en": "overlap_sentences", "pt": "frases_sobrepostas"},
    "param_name.threshold": {"en": "threshold", "pt": "limiar"},
    "param_name.percentile": {"en": "percentile", "pt": "percentil"},
    "param_name.min_chars": {"en": "min_chars", "pt": "mín_caracteres"},
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
            "cost, with {false_refusals} and {false_answers}."
        ),
        "pt": (
            "Nenhum piso separa os grupos: o maior melhor score das sem resposta ({highest}) "
            "alcança o menor das respondíveis ({lowest}). O piso {floor} minimiza o custo, com "
            "{false_refusals} e {false_answers}."
        ),
    },
    "why.already_ok": {
        "en": "This question is already answered right under {config}; nothing to fix.",
        "pt": "Esta pergunta já é respondida corretamente com {config}; nada a corrigir.",
    },
    "why.fix": {
        "en": (
            "{config} fixes it without breaking any of the {n} other questions that are "
            "right now: {detail}"
        ),
        "pt": (
            "{config} corrige a pergunta sem quebrar nenhuma das {n} outras perguntas "
            "que estão certas agora: {detail}"
        ),
    },
    "why.fix.one": {
        "en": "{config} fixes it without breaking the {n} other question that is right now: "
              "{detail}",
        "pt": "{config} corrige a pergunta sem quebrar a {n} outra pergunta que está certa "
              "agora: {detail}",
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
    # --- counts with their words: "<key>.one" for 1, "<key>" otherwise (``count``) ------
    "app.answerable_refused": {"en": "{n} of {total} answerable refused",
                               "pt": "respondíveis recusadas: {n} de {total}"},
    "count.false_refusals": {"en": "{n} false refusals", "pt": "{n} recusas indevidas"},
    "count.false_refusals.one": {"en": "{n} false refusal", "pt": "{n} recusa indevida"},
    "count.false_answers": {"en": "{n} false answers", "pt": "{n} respostas indevidas"},
    "count.false_answers.one": {"en": "{n} false answer", "pt": "{n} resposta indevida"},
    "model.use-multilingual": {
        "en": "Google USE multilingual v3 (16 languages, offline, no token limit)",
        "pt": "Google USE multilíngue v3 (16 idiomas, offline, sem limite de tokens)",
    },
    "model.minilm-en": {
        "en": "all-MiniLM-L6-v2 (English, offline, 256-token limit)",
        "pt": "all-MiniLM-L6-v2 (inglês, offline, limite de 256 tokens)",
    },
    "link.restored_pasted": {
        "en": "Restored from the link: your pasted document ({n} characters), {q} questions, settings.",
        "pt": "Restaurado do link: seu documento colado ({n} caracteres), {q} perguntas, configurações.",
    },
    "link.restored_sample": {
        "en": "Restored from the link: the sample document ({n} characters), your {q} questions, settings.",
        "pt": "Restaurado do link: o documento de exemplo ({n} caracteres), suas {q} perguntas, configurações.",
    },
    "link.refused": {
        "en": "The link's document and questions were not restored: {error}",
        "pt": "O documento e as perguntas do link não foram restaurados: {error}",
    },
    "link.too_long": {
        "en": "This page's link does not carry your document and questions (they need about {n} characters; a link holds {limit}): export the workspace file to share them.",
        "pt": "O link desta página não leva seu documento e suas perguntas (precisam de uns {n} caracteres; um link comporta {limit}): exporte o arquivo de workspace para compartilhá-los.",
    },
    "metric.hit_at_1": {"en": "answer in 1st chunk (hit@1)", "pt": "resposta no 1º chunk (hit@1)"},
    "metric.hit_at_k": {"en": "hit@k", "pt": "hit@k"},
    "metric.mrr": {"en": "MRR", "pt": "MRR"},
    "metric.refusal_precision": {"en": "refusal precision", "pt": "precisão das recusas"},
    "metric.refusal_recall": {
        "en": "unanswerable refused", "pt": "sem resposta recusadas",
    },
    "tokens.line": {"en": "recall {recall} · IoU {iou}", "pt": "revocação {recall} · IoU {iou}"},
    "tokens.missed": {"en": "excerpts missed: {numbers} of {total}",
                      "pt": "trechos perdidos: {numbers} de {total}"},
    "metric.recall": {"en": "token recall", "pt": "revocação de tokens"},
    "metric.precision": {"en": "token precision", "pt": "precisão de tokens"},
    "metric.iou": {"en": "token IoU", "pt": "IoU de tokens"},
    "metric.precision_omega": {"en": "precision Ω (chunker's ceiling)",
                               "pt": "precisão Ω (teto do chunker)"},
    # short names (the report, the CLI, the app's line of figures); {k} is top_k
    "metric_short.recall": {"en": "recall", "pt": "revocação"},
    "metric_short.precision": {"en": "precision", "pt": "precisão"},
    "metric_short.iou": {"en": "IoU", "pt": "IoU"},
    "metric_short.precision_omega": {"en": "precision Ω", "pt": "precisão Ω"},
    "metric_short.hit_at_1": {"en": "hit@1", "pt": "hit@1"},
    "metric_short.hit_at_k": {"en": "hit@{k}", "pt": "hit@{k}"},
    "metric_short.mrr": {"en": "MRR", "pt": "MRR"},
    "metric_short.refusal_precision": {"en": "refusal precision", "pt": "precisão das recusas"},
    "metric_short.refusal_recall": {"en": "refusal recall", "pt": "revocação das recusas"},
    "app.direction_fixed": {"en": "fixed by B", "pt": "corrigida por B"},
    "app.direction_broken": {"en": "broken by B", "pt": "quebrada por B"},
    "app.direction_changed": {"en": "changed", "pt": "mudou"},
    "chart.answerable": {"en": "answerable", "pt": "com resposta"},
    "chart.unanswerable": {"en": "unanswerable", "pt": "sem resposta"},
    "chart.status_context": {"en": "sent as context", "pt": "enviado como contexto"},
    "chart.status_under_floor": {
        "en": "in top_k, under the floor",
        "pt": "no top_k, abaixo do piso",
    },
    "chart.status_other": {"en": "not retrieved", "pt": "não recuperado"},
    "chart.score": {"en": "cosine score", "pt": "score de cosseno"},
    "chart.floor": {"en": "floor {floor}", "pt": "piso {floor}"},
    "chart.answer_key": {
        "en": "holds the expected answer", "pt": "contém a resposta esperada",
    },
}
