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
    "outcome.nothing_matched": {
        "en": "refused: no chunk holds a word of the question (every BM25 score is 0)",
        "pt": "recusada: nenhum chunk contém uma palavra da pergunta (todo score BM25 é 0)",
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
    "input.big_upload_unnamed": {
        "en": "The file has {n} bytes ({mb} MB); the limit is {limit} bytes ({limit_mb} MB).",
        "pt": "O arquivo tem {n} bytes ({mb} MB); o limite é {limit} bytes ({limit_mb} MB).",
    },
    "input.binary_unnamed": {
        "en": "The file looks binary, not text: upload a .txt or .md file.",
        "pt": "O arquivo parece binário, não texto: envie um arquivo .txt ou .md.",
    },
    "input.undecodable": {
        "en": "The file could not be read as text in UTF-8, Windows-1252 or Latin-1.",
        "pt": "Não foi possível ler o arquivo como texto em UTF-8, Windows-1252 ou Latin-1.",
    },
    # --- diagnosis (ragviz.evaluation.diagnosis) ---------------------------------------------------
    # Diagnosis, calibration and why-failed (ragviz.evaluation.diagnosis, .calibration, .evaluation).
    "diagnosis.ok_answered_no_floor": {"en": 'Chunk {chunk} holds the answer "{answer}" and ranks first with {score} (no floor is set).', "pt": 'O chunk {chunk} contém a resposta "{answer}" e fica em primeiro com {score} (nenhum piso definido).'},
    "diagnosis.ok_no_expected_answer_no_floor": {"en": "No expected answer is given and no floor is set: chunk {chunk} ranks first with {score}.", "pt": "Nenhuma resposta esperada foi dada e nenhum piso está definido: o chunk {chunk} fica em primeiro com {score}."},
    "diagnosis.false_context_no_floor": {"en": "The document does not answer this, yet chunk {chunk} is handed on with {score}: no floor is set, so the language model gets context and may invent an answer.", "pt": "O documento não responde a isto, mas o chunk {chunk} é repassado com {score}: nenhum piso está definido, então o modelo de linguagem recebe contexto e pode inventar uma resposta."},
    "diagnosis.false_context_files_no_floor": {"en": "No file answers this, yet chunk {chunk} is handed on with {score}: no floor is set, so the language model gets context and may invent an answer.", "pt": "Nenhum arquivo responde a isto, mas o chunk {chunk} é repassado com {score}: nenhum piso está definido, então o modelo de linguagem recebe contexto e pode inventar uma resposta."},
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
    "label.ann-miss": {"en": "ann-miss", "pt": "falha-do-indice-aproximado"},
    "label.reranked-out": {"en": "reranked-out", "pt": "tirada-pelo-reranker"},
    "diagnosis.reranked_out": {"en": "The first stage ranked the answer's chunk {chunk} {first} (inside the top {top_k}); the reranker moved it to {rank}, out of the top_k.", "pt": "O primeiro estágio pôs o chunk da resposta {chunk} em {first} (dentro do top {top_k}); o reranker o moveu para {rank}, fora do top_k."},
    "diagnosis.reranked_moved": {"en": "The reranker moved the answer's chunk from rank {first} to rank {rank}.", "pt": "O reranker moveu o chunk da resposta da posição {first} para a posição {rank}."},
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
    "chart.bm25_score": {"en": "BM25 score", "pt": "score BM25"},
    "chart.rrf_score": {"en": "fused score (reciprocal rank fusion)", "pt": "score combinado (fusão por posto recíproco)"},
    "chart.fused_score": {"en": "fused score (weighted)", "pt": "score combinado (ponderado)"},
    "chart.rerank_score": {"en": "reranker score", "pt": "score do reranker"},
    "chart.floor": {"en": "floor {floor}", "pt": "piso {floor}"},
    "chart.answer_key": {
        "en": "holds the expected answer", "pt": "contém a resposta esperada",
    },
    # --- files that cannot become text (ragviz.inputs.convert, .corpus) ------------------------
    "convert.could_not_read": {"en": "{name} could not be read: {reason}.", "pt": "{name} não pôde ser lido: {reason}."},
    "convert.no_extension": {"en": "files without an extension", "pt": "arquivos sem extensão"},
    "convert.unsupported": {"en": "{suffix} is not a supported type (use .txt, .md, .html, .pdf or .docx)", "pt": "{suffix} não é um tipo aceito (use .txt, .md, .html, .pdf ou .docx)"},
    "convert.empty": {"en": "the file is empty", "pt": "o arquivo está vazio"},
    "convert.no_text": {"en": "it holds no text", "pt": "ele não contém texto"},
    "convert.too_big": {"en": "it has {n} bytes and the limit is {limit}", "pt": "ele tem {n} bytes e o limite é {limit}"},
    "convert.text_is_binary": {"en": "its name says text but its content is a PDF or an archive", "pt": "o nome diz texto, mas o conteúdo é um PDF ou um arquivo compactado"},
    "convert.binary": {"en": "looks binary, not text", "pt": "parece binário, não texto"},
    "convert.big_text": {"en": "has {n} bytes ({mb} MB); the limit is {limit} bytes ({limit_mb} MB)", "pt": "tem {n} bytes ({mb} MB); o limite é {limit} bytes ({limit_mb} MB)"},
    "convert.guessed": {"en": "{name} is not UTF-8; it was read as {encoding}.", "pt": "{name} não está em UTF-8; foi lido como {encoding}."},
    "convert.cut": {"en": "text nested more than {depth} elements deep, and what follows it, was left out.", "pt": "o texto aninhado a mais de {depth} elementos de profundidade, e o que vem depois dele, ficou de fora."},
    "convert.guessed_and_cut": {"en": "{name} is not UTF-8; it was read as {encoding}. Also, text nested more than {depth} elements deep, and what follows it, was left out.", "pt": "{name} não está em UTF-8; foi lido como {encoding}. Além disso, o texto aninhado a mais de {depth} elementos de profundidade, e o que vem depois dele, ficou de fora."},
    "convert.too_deep": {"en": "its text sits inside more than {depth} nested elements, deeper than ragviz reads HTML", "pt": "seu texto está dentro de mais de {depth} elementos aninhados, mais fundo do que o ragviz lê HTML"},
    "convert.not_pdf": {"en": "it is named .pdf but its content is not a PDF", "pt": "o nome termina em .pdf, mas o conteúdo não é um PDF"},
    "convert.not_docx": {"en": "it is named .docx but its content is not a Word document", "pt": "o nome termina em .docx, mas o conteúdo não é um documento do Word"},
    "convert.pdf_no_text_layer": {"en": "the PDF has no text layer (scanned or image-only; run OCR first)", "pt": "o PDF não tem camada de texto (digitalizado ou só imagens; passe um OCR antes)"},
    "convert.pdf_partly_read": {"en": "only the first {n} of {total} pages were read; the next one took longer than {seconds} s", "pt": "só as primeiras {n} de {total} páginas foram lidas; a seguinte levou mais de {seconds} s"},
    "convert.pdf_slow": {"en": "reading its first page took longer than {seconds} s (a PDF built to be slow?)", "pt": "ler a primeira página levou mais de {seconds} s (um PDF feito para ser lento?)"},
    "convert.too_long": {"en": "it holds more than {limit} characters of text, the limit for one file", "pt": "ele contém mais de {limit} caracteres de texto, o limite para um arquivo"},
    "convert.pdf_encrypted": {"en": "the PDF is encrypted with a password", "pt": "o PDF está protegido por senha"},
    "convert.pdf_bomb": {"en": "a compressed part of it unpacks past the safety limit (a decompression bomb?)", "pt": "uma parte comprimida dele se expande além do limite de segurança (uma bomba de descompressão?)"},
    "convert.pdf_memory": {"en": "reading it needed more than {mb} MB of memory", "pt": "lê-lo precisou de mais de {mb} MB de memória"},
    "convert.pdf_corrupt": {"en": "the PDF is damaged or incomplete", "pt": "o PDF está danificado ou incompleto"},
    "convert.docx_bomb": {"en": "its text part unpacks to more than {limit} bytes (a decompression bomb?)", "pt": "sua parte de texto se expande para mais de {limit} bytes (uma bomba de descompressão?)"},
    "convert.docx_corrupt": {"en": "the Word document is damaged", "pt": "o documento do Word está danificado"},
    "corpus.missing": {"en": "{name} could not be read: no such file.", "pt": "{name} não pôde ser lido: o arquivo não existe."},
    "corpus.other_files": {"en": "{n} files in {name} are not .txt, .md, .html, .pdf, .docx or .zip and were not read.", "pt": "{n} arquivos em {name} não são .txt, .md, .html, .pdf, .docx ou .zip e não foram lidos."},
    "corpus.other_files.one": {"en": "{n} file in {name} is not .txt, .md, .html, .pdf, .docx or .zip and was not read.", "pt": "{n} arquivo em {name} não é .txt, .md, .html, .pdf, .docx ou .zip e não foi lido."},
    "corpus.zip_members": {"en": "{name} could not be read: it lists {n} entries and the limit is {limit}.", "pt": "{name} não pôde ser lido: ele lista {n} entradas e o limite é {limit}."},
    "corpus.zip_bad_name": {"en": "A file in {name} was skipped: its name {member} is marked UTF-8 but is not.", "pt": "Um arquivo em {name} foi ignorado: o nome {member} está marcado como UTF-8, mas não é."},
    "corpus.zip_expands": {"en": "{name} could not be read: it expands to {n} bytes and the limit is {limit}.", "pt": "{name} não pôde ser lido: ele se expande para {n} bytes e o limite é {limit}."},
    "corpus.zip_invalid": {"en": "{name} could not be read: it is not a valid zip archive.", "pt": "{name} não pôde ser lido: não é um arquivo zip válido."},
    "corpus.zip_unsafe": {"en": "{member} in {name} was skipped: its path points outside the archive.", "pt": "{member} em {name} foi ignorado: o caminho aponta para fora do arquivo compactado."},
    "corpus.zip_member_damaged": {"en": "{member} in {name} could not be read: it is encrypted or damaged.", "pt": "{member} em {name} não pôde ser lido: está criptografado ou danificado."},
    "corpus.zip_expands_past": {"en": "{name} could not be read: it expands past {limit} bytes.", "pt": "{name} não pôde ser lido: ele se expande além de {limit} bytes."},
    "corpus.zip_member_too_big": {"en": "{member} in {name} was skipped: it unpacks to more than {limit} bytes, the limit for one file.", "pt": "{member} em {name} foi ignorado: ele se expande para mais de {limit} bytes, o limite para um arquivo."},
    "corpus.file_limit": {"en": "The corpus is limited to {limit} files; {left} more were not loaded.", "pt": "O corpus é limitado a {limit} arquivos; outros {left} não foram carregados."},
    "corpus.char_limit": {"en": "The corpus is limited to {limit} characters; {name} and the files after it were not loaded.", "pt": "O corpus é limitado a {limit} caracteres; {name} e os arquivos depois dele não foram carregados."},
    # --- questions files and excerpts (ragviz.inputs.questions) -------------------------------
    "questions.line": {"en": "line {line}", "pt": "linha {line}"},
    "questions.number": {"en": "question {n}", "pt": "pergunta {n}"},
    "questions.at": {"en": "{where}: ", "pt": "{where}: "},
    "questions.excerpt": {"en": "{where}: excerpt {n}", "pt": "{where}: trecho {n}"},
    "questions.no_column": {"en": "none", "pt": "nenhuma"},
    "questions.answerable": {"en": "answerable must be true/false, yes/no, sim/não or 1/0, got {got}", "pt": "answerable deve ser true/false, yes/no, sim/não ou 1/0; veio {got}"},
    "questions.in_line": {"en": "{at}{error}.", "pt": "{at}{error}."},
    "questions.long_question": {"en": "{at}the question has {n} characters; the limit is {limit}.", "pt": "{at}a pergunta tem {n} caracteres; o limite é {limit}."},
    "questions.long_answer": {"en": "{at}the expected answer has {n} characters; the limit is {limit}.", "pt": "{at}a resposta esperada tem {n} caracteres; o limite é {limit}."},
    "questions.none": {"en": "The questions file {name} has no questions: add one per line under the header question,answer,answerable.", "pt": "O arquivo de perguntas {name} não tem perguntas: ponha uma por linha sob o cabeçalho question,answer,answerable."},
    "questions.none_unnamed": {"en": "The questions file has no questions: add one per line under the header question,answer,answerable.", "pt": "O arquivo de perguntas não tem perguntas: ponha uma por linha sob o cabeçalho question,answer,answerable."},
    "questions.semicolons": {"en": "{at}the columns are separated by semicolons; save the file with commas (question,answer,answerable).", "pt": "{at}as colunas estão separadas por ponto e vírgula; salve o arquivo com vírgulas (question,answer,answerable)."},
    "questions.csv_lone_cr": {"en": "{at}a carriage return (CR) without a line feed splits the row; save the file with ordinary line ends (LF or CRLF).", "pt": "{at}um retorno de carro (CR) sem quebra de linha divide a linha; salve o arquivo com finais de linha comuns (LF ou CRLF)."},
    "questions.csv_field_too_long": {"en": "{at}a field runs far past the limits (a question may have {question} characters, an answer {answer}); look for a quote (\") that is never closed.", "pt": "{at}um campo passa muito dos limites (uma pergunta pode ter {question} caracteres, uma resposta {answer}); procure uma aspa (\") que nunca é fechada."},
    "questions.csv_open_quote": {"en": "{at}a quote (\") opens a field that is never closed; close or remove it.", "pt": "{at}uma aspa (\") abre um campo que nunca é fechado; feche-a ou remova-a."},
    "questions.csv_text_after_quote": {"en": "{at}a quoted field is followed by more text before the next comma; put the whole field in quotes and double any quote inside it (\"\").", "pt": "{at}um campo entre aspas é seguido de mais texto antes da próxima vírgula; ponha o campo inteiro entre aspas e duplique as aspas dentro dele (\"\")."},
    "questions.csv_other": {"en": "{at}not valid CSV ({error}).", "pt": "{at}CSV inválido ({error})."},
    "questions.empty": {"en": "the questions file is empty: it needs a header row question,answer,answerable", "pt": "o arquivo de perguntas está vazio: ele precisa de uma linha de cabeçalho question,answer,answerable"},
    "questions.too_many": {"en": "{at}more than {limit} questions; the limit is {limit}.", "pt": "{at}mais de {limit} perguntas; o limite é {limit}."},
    "questions.column_twice": {"en": "{at}a column appears twice ({columns}).", "pt": "{at}uma coluna aparece duas vezes ({columns})."},
    "questions.no_question_column": {"en": "{at}the questions file needs a 'question' column, found {columns}.", "pt": "{at}o arquivo de perguntas precisa de uma coluna 'question'; há {columns}."},
    "questions.unknown_columns": {"en": "{at}unknown columns {columns}; use question,answer,answerable (and optionally references,corpus_id).", "pt": "{at}colunas desconhecidas {columns}; use question,answer,answerable (e, se quiser, references,corpus_id)."},
    "questions.unknown_columns.one": {"en": "{at}unknown column {columns}; use question,answer,answerable (and optionally references,corpus_id).", "pt": "{at}coluna desconhecida {columns}; use question,answer,answerable (e, se quiser, references,corpus_id)."},
    "questions.too_many_fields": {"en": "{at}{n} fields, the header has {header}.", "pt": "{at}{n} campos, o cabeçalho tem {header}."},
    "questions.empty_question": {"en": "{at}the question is empty.", "pt": "{at}a pergunta está vazia."},
    "questions.unanswerable_with_answer": {"en": "{at}an unanswerable question cannot have an expected answer.", "pt": "{at}uma pergunta sem resposta não pode ter resposta esperada."},
    "questions.references_json": {"en": "{at}the references are not valid JSON; write a list like [{{\"content\": \"...\", \"start_index\": 0, \"end_index\": 10}}].", "pt": "{at}as referências não são JSON válido; escreva uma lista como [{{\"content\": \"...\", \"start_index\": 0, \"end_index\": 10}}]."},
    "questions.references_list": {"en": "{at}the references must be a JSON list of at most {limit} excerpts.", "pt": "{at}as referências devem ser uma lista JSON de no máximo {limit} trechos."},
    "questions.excerpt_no_content": {"en": "{where} needs a non-empty \"content\" text.", "pt": "{where} precisa de um texto \"content\" não vazio."},
    "questions.excerpt_too_long": {"en": "{where} has {n} characters; the limit is {limit}.", "pt": "{where} tem {n} caracteres; o limite é {limit}."},
    "questions.excerpt_offsets": {"en": "{at}start_index and end_index must be whole numbers from 0, the end not before the start.", "pt": "{at}start_index e end_index devem ser números inteiros a partir de 0, o fim não antes do início."},
    # --- chunker parameters (ragviz.chunking.registry) -----------------------------------------
    "param.whole_number": {"en": "{name} must be a whole number, got {got}", "pt": "{name} deve ser um número inteiro; veio {got}"},
    "param.number": {"en": "{name} must be a number, got {got}", "pt": "{name} deve ser um número; veio {got}"},
    "param.at_least": {"en": "{name} must be at least {limit}, got {got}", "pt": "{name} deve ser no mínimo {limit}; veio {got}"},
    "param.at_most": {"en": "{name} must be at most {limit}, got {got}", "pt": "{name} deve ser no máximo {limit}; veio {got}"},
    "param.not_a_number": {"en": "{name}={got} is not a number", "pt": "{name}={got} não é um número"},
    "param.not_both": {"en": "give one of {names}, not both ({given})", "pt": "dê um só entre {names}, não os dois ({given})"},
    "param.overlap_under_size": {"en": "{overlap} must be smaller than {size} ({limit}), got {got}", "pt": "{overlap} deve ser menor que {size} ({limit}); veio {got}"},
    "param.peer_missing": {"en": "the {name} chunker needs {library}: pip install '{extra}'", "pt": "o chunker {name} precisa de {library}: pip install '{extra}'"},
    "param.unknown_chunker": {"en": "chunker must be one of {known}, got {got}", "pt": "o chunker deve ser um de {known}; veio {got}"},
    "param.unknown_settings": {"en": "unknown chunker settings: {names}", "pt": "parâmetros de chunker desconhecidos: {names}"},
    "param.unknown_settings.one": {"en": "unknown chunker setting: {names}", "pt": "parâmetro de chunker desconhecido: {names}"},
    "param.needs_model": {"en": "the {name} chunker needs a model", "pt": "o chunker {name} precisa de um modelo"},
    # --- workspace files (ragviz.share.workspace) ----------------------------------------------
    "workspace.configuration": {"en": "configuration {name}: {error}", "pt": "configuração {name}: {error}"},
    "workspace.between": {"en": "{name} must be between {low} and {high}, got {got}", "pt": "{name} deve estar entre {low} e {high}; veio {got}"},
    "workspace.scorer": {"en": "the scorer must be a name such as cosine, bm25 or hybrid, got {got}", "pt": "o scorer deve ser um nome como cosine, bm25 ou hybrid; veio {got}"},
    "workspace.reranker": {"en": "the app reranks only with {allowed} (a CrossEncoder or a rerank API runs from the command line), got {got}", "pt": "o app reordena só com {allowed} (um CrossEncoder ou uma API de rerank rodam pela linha de comando); veio {got}"},
    "workspace.language": {"en": "language must be one of {known}, got {got}", "pt": "o idioma deve ser um de {known}; veio {got}"},
    "workspace.model_length": {"en": "model must be a name of 1 to {limit} characters", "pt": "o modelo deve ser um nome de 1 a {limit} caracteres"},
    "workspace.model_error": {"en": "model: {error}", "pt": "modelo: {error}"},
    "workspace.model_unknown": {"en": "model {name} is not a bundled model or a hub id (owner/name); local model folders are accepted only inside the folder {env} names", "pt": "o modelo {name} não é um modelo incluído nem um id do hub (dono/nome); pastas locais de modelos só são aceitas dentro da pasta que {env} indica"},
    "workspace.too_big": {"en": "{what} has {n} bytes; the limit is {limit}", "pt": "{what} tem {n} bytes; o limite é {limit}"},
    "workspace.not_json": {"en": "{what} is not valid JSON: {error}", "pt": "{what} não é JSON válido: {error}"},
    "workspace.too_deep": {"en": "{what} is nested too deeply to be a workspace", "pt": "{what} é aninhado fundo demais para ser um workspace"},
    "workspace.unreadable_value": {"en": "{what} has a value ragviz cannot read: {error}", "pt": "{what} tem um valor que o ragviz não consegue ler: {error}"},
    "workspace.not_workspace": {"en": "this is not a ragviz workspace file (no \"format\": \"ragviz-workspace\")", "pt": "este não é um arquivo de workspace do ragviz (falta \"format\": \"ragviz-workspace\")"},
    "workspace.version": {"en": "unsupported workspace version {got}", "pt": "versão de workspace não suportada: {got}"},
    "workspace.binary_document": {"en": "the document looks binary, not text: it holds NUL or mostly control characters", "pt": "o documento parece binário, não texto: contém NUL ou sobretudo caracteres de controle"},
    "workspace.too_many_questions": {"en": "{n} questions; the limit is {limit}", "pt": "{n} perguntas; o limite é {limit}"},
    "workspace.constant": {"en": "{name} is not a number a workspace may hold", "pt": "{name} não é um número que um workspace possa conter"},
    "workspace.long_number": {"en": "a number with {n} digits is far too large", "pt": "um número com {n} dígitos é grande demais"},
    "workspace.surrogates": {"en": "{where}: the text holds characters that are not valid Unicode", "pt": "{where}: o texto contém caracteres que não são Unicode válido"},
    "workspace.unknown_fields": {"en": "{where}: unknown fields {names}", "pt": "{where}: campos desconhecidos {names}"},
    "workspace.unknown_fields.one": {"en": "{where}: unknown field {names}", "pt": "{where}: campo desconhecido {names}"},
    "workspace.missing_field": {"en": "{where}: missing field {name}", "pt": "{where}: falta o campo {name}"},
    "workspace.field_type": {"en": "{where}: {name} must be {kind}, got {got}", "pt": "{where}: {name} deve ser {kind}; veio {got}"},
    # --- models and the embedding API (ragviz.embedding) ---------------------------------------
    "model.needs_package": {"en": "{model} needs the package {package}: pip install {package}", "pt": "{model} precisa do pacote {package}: pip install {package}"},
    "model.needs_torch": {"en": "this model needs sentence-transformers and torch: pip install sentence-transformers torch==2.13.0", "pt": "este modelo precisa de sentence-transformers e torch: pip install sentence-transformers torch==2.13.0"},
    "model.path_not_folder": {"en": "model path {path} is not a folder; give a sentence-transformers model folder", "pt": "o caminho de modelo {path} não é uma pasta; dê uma pasta de modelo sentence-transformers"},
    "model.not_sentence_transformers": {"en": "{path} holds a model but not a sentence-transformers model (no modules.json); export it with sentence-transformers or pick another model", "pt": "{path} contém um modelo, mas não um modelo sentence-transformers (sem modules.json); exporte-o com sentence-transformers ou escolha outro modelo"},
    "model.not_model_folder": {"en": "{path} is not a model folder (no modules.json, no config.json)", "pt": "{path} não é uma pasta de modelo (sem modules.json, sem config.json)"},
    "model.load_failed_path": {"en": "could not load the model in {path}: {error}", "pt": "não foi possível carregar o modelo em {path}: {error}"},
    "model.offline": {"en": "cannot download {model}: this machine has no access to the model hub (offline). Use a bundled model (use-multilingual, minilm-en), a local model folder, or download the model once on a machine with network access.", "pt": "não é possível baixar {model}: esta máquina não tem acesso ao hub de modelos (offline). Use um modelo incluído (use-multilingual, minilm-en), uma pasta local de modelo, ou baixe o modelo uma vez numa máquina com acesso à rede."},
    "model.unknown_id": {"en": "unknown model id {model}: no such sentence-transformers model on the hub; check the spelling, e.g. sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2", "pt": "id de modelo desconhecido {model}: não há esse modelo sentence-transformers no hub; confira a grafia, p. ex. sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"},
    "model.load_failed": {"en": "could not load {model}: {error}", "pt": "não foi possível carregar {model}: {error}"},
    "model.none": {"en": "no model given; pick use-multilingual, minilm-en or a model id", "pt": "nenhum modelo dado; escolha use-multilingual, minilm-en ou um id de modelo"},
    "cache.unusable": {"en": "the embedding cache on disk cannot be used ({reason}), so embeddings are not kept across runs: set RAGVIZ_CACHE_DIR to a writable folder or run `ragviz cache clear`", "pt": "o cache de embeddings em disco não pode ser usado ({reason}), então os embeddings não são guardados entre execuções: aponte RAGVIZ_CACHE_DIR para uma pasta gravável ou rode `ragviz cache clear`"},
    "cache.bad_limit": {"en": "RAGVIZ_CACHE_MB is {got}, not a number of megabytes of 0 or more, so the cache keeps its default of {default} MB: set it to a number such as 500", "pt": "RAGVIZ_CACHE_MB é {got}, não um número de megabytes igual ou maior que 0, então o cache mantém o padrão de {default} MB: defina um número como 500"},
    "cache.info": {"en": "embedding cache in {folder}: {entries} embeddings, {size} MB of at most {limit} MB (RAGVIZ_CACHE_MB)", "pt": "cache de embeddings em {folder}: {entries} embeddings, {size} MB de no máximo {limit} MB (RAGVIZ_CACHE_MB)"},
    "cache.info_unusable": {"en": "embedding cache in {folder}: cannot be opened, so runs embed without it; `ragviz cache clear` removes the file", "pt": "cache de embeddings em {folder}: não pode ser aberto, então as execuções calculam sem ele; `ragviz cache clear` remove o arquivo"},
    "cache.info_model": {"en": "  {model}: {entries} embeddings, {size} MB", "pt": "  {model}: {entries} embeddings, {size} MB"},
    "cache.cleared": {"en": "removed {entries} embeddings ({size} MB on disk) from {folder}", "pt": "removidos {entries} embeddings ({size} MB em disco) de {folder}"},
    "model.path_missing": {"en": "model path {path} does not exist", "pt": "o caminho de modelo {path} não existe"},
    "model.not_a_name_or_folder": {"en": "{name} is neither a bundled model, a local folder nor a hub id (owner/name)", "pt": "{name} não é um modelo incluído, uma pasta local nem um id do hub (dono/nome)"},
    "model.not_a_name": {"en": "{name} is neither a bundled model nor a hub id (owner/name)", "pt": "{name} não é um modelo incluído nem um id do hub (dono/nome)"},
    "api.base_scheme": {"en": "the API base URL {url} must start with http:// or https:// and name a host (e.g. http://localhost:11434/v1); nothing was sent", "pt": "a URL base da API {url} deve começar com http:// ou https:// e nomear um host (p. ex. http://localhost:11434/v1); nada foi enviado"},
    "api.base_credentials": {"en": "the API base URL {url} holds a user name or password; remove it and put the key in the API key field (or OPENAI_API_KEY)", "pt": "a URL base da API {url} contém um usuário ou senha; remova-os e ponha a chave no campo da chave da API (ou em OPENAI_API_KEY)"},
    "api.base_query": {"en": "the API base URL {url} holds a query or fragment (?… or #…); give the base only, e.g. http://localhost:11434/v1", "pt": "a URL base da API {url} contém uma consulta ou fragmento (?… ou #…); dê só a base, p. ex. http://localhost:11434/v1"},
    "api.no_model": {"en": "no model name after openai: (e.g. openai:text-embedding-3-small)", "pt": "falta o nome do modelo depois de openai: (p. ex. openai:text-embedding-3-small)"},
    "api.needs_key": {"en": "the OpenAI API needs a key: set OPENAI_API_KEY or enter it in the key field", "pt": "a API da OpenAI precisa de uma chave: defina OPENAI_API_KEY ou digite-a no campo da chave"},
    "api.needs_package": {"en": "openai: models need the package openai: pip install openai", "pt": "modelos openai: precisam do pacote openai: pip install openai"},
    # --- the LLM's answer (ragviz.answering) ----------------------------------------------------
    "llm.bad_name": {"en": "--llm takes openai:MODEL (e.g. openai:gpt-4o-mini, or openai:llama3.2 with --llm-base http://localhost:11434/v1), got {got}", "pt": "--llm recebe openai:MODELO (p. ex. openai:gpt-4o-mini, ou openai:llama3.2 com --llm-base http://localhost:11434/v1), recebeu {got}"},
    "llm.needs_key": {"en": "the language model at {base} needs a key: set RAGVIZ_LLM_API_KEY (or OPENAI_API_KEY), or point --llm-base at a local server", "pt": "o modelo de linguagem em {base} precisa de uma chave: defina RAGVIZ_LLM_API_KEY (ou OPENAI_API_KEY), ou aponte --llm-base para um servidor local"},
    "llm.options_without_llm": {"en": "these options need --llm openai:MODEL: {options}; add --llm or leave them out", "pt": "estas opções precisam de --llm openai:MODELO: {options}; acrescente --llm ou retire-as"},
    "llm.timeout": {"en": "the language model at {base} did not answer within {seconds} s; try again, raise --llm-timeout or choose a faster model", "pt": "o modelo de linguagem em {base} não respondeu em {seconds} s; tente de novo, aumente --llm-timeout ou escolha um modelo mais rápido"},
    "llm.unreachable": {"en": "cannot reach the language model at {base}: {reason}; check --llm-base", "pt": "não foi possível falar com o modelo de linguagem em {base}: {reason}; confira --llm-base"},
    "llm.key_refused": {"en": "the language model at {base} refused the API key (HTTP {status}); set RAGVIZ_LLM_API_KEY (or OPENAI_API_KEY) to a key it accepts", "pt": "o modelo de linguagem em {base} recusou a chave da API (HTTP {status}); defina RAGVIZ_LLM_API_KEY (ou OPENAI_API_KEY) com uma chave aceita"},
    "llm.no_model": {"en": "the server at {base} has no model {model!r} (HTTP {status}); check the name after openai: ({base}/models lists them)", "pt": "o servidor em {base} não tem o modelo {model!r} (HTTP {status}); confira o nome depois de openai: ({base}/models os lista)"},
    "llm.no_api": {"en": "no OpenAI chat API at {base} (HTTP {status} on {base}/chat/completions); check --llm-base (it usually ends in /v1)", "pt": "não há API de chat da OpenAI em {base} (HTTP {status} em {base}/chat/completions); confira --llm-base (geralmente termina em /v1)"},
    "llm.kept_failing": {"en": "the language model at {base} kept failing (HTTP {status}) after {retries} retries; try again later", "pt": "o modelo de linguagem em {base} continuou falhando (HTTP {status}) depois de {retries} novas tentativas; tente mais tarde"},
    "llm.rejected": {"en": "the language model at {base} rejected the request (HTTP {status}){detail}; check the model and --max-tokens", "pt": "o modelo de linguagem em {base} rejeitou o pedido (HTTP {status}){detail}; confira o modelo e --max-tokens"},
    "llm.stream_cut": {"en": "the answer from {base} stopped halfway (the connection closed before the model finished); ask again", "pt": "a resposta de {base} parou no meio (a conexão fechou antes de o modelo terminar); pergunte de novo"},
    "llm.empty": {"en": "the language model {model!r} at {base} returned no answer (an empty choice); ask again or try another model", "pt": "o modelo de linguagem {model!r} em {base} não devolveu resposta (uma escolha vazia); pergunte de novo ou tente outro modelo"},
    "llm.content_filter": {"en": "the content filter of the server at {base} refused to answer this prompt; read the chunks it carried, or use a server without that filter", "pt": "o filtro de conteúdo do servidor em {base} se recusou a responder a este prompt; leia os chunks que ele levava, ou use um servidor sem esse filtro"},
    "llm.not_an_api": {"en": "the server at {base} answered, but not like an OpenAI chat API; check --llm-base (it usually ends in /v1)", "pt": "o servidor em {base} respondeu, mas não como uma API de chat da OpenAI; confira --llm-base (geralmente termina em /v1)"},
    "llm.template_fields": {"en": "the prompt template lacks {missing}; put {{context}} where the excerpts go and {{question}} where the question goes", "pt": "falta no modelo de prompt {missing}; ponha {{context}} onde vão os trechos e {{question}} onde vai a pergunta"},
    "llm.template_long": {"en": "the prompt template holds {n} characters, more than {limit}; shorten it", "pt": "o modelo de prompt tem {n} caracteres, mais que {limit}; encurte-o"},
    "llm.template_unreadable": {"en": "cannot read the prompt template {path}: {reason}; give a UTF-8 text file", "pt": "não foi possível ler o modelo de prompt {path}: {reason}; dê um arquivo de texto UTF-8"},
    "llm.verdict.correct": {"en": "correct", "pt": "correta"},
    "llm.verdict.incorrect": {"en": "incorrect", "pt": "incorreta"},
    "llm.verdict.refused-by-llm": {"en": "refused by the LLM", "pt": "recusada pelo LLM"},
    "llm.verdict.not-asked": {"en": "not asked (the floor refused: no call)", "pt": "não perguntada (o piso recusou: sem chamada)"},
    "llm.verdict.hallucinated": {"en": "hallucinated (no answer is in the document)", "pt": "alucinada (a resposta não está no documento)"},
    "llm.verdict.answered-from-wrong-chunk": {"en": "answered from the wrong chunk: its words come from chunk {chunk}, which does not hold the expected answer", "pt": "respondida a partir do chunk errado: as palavras vêm do chunk {chunk}, que não contém a resposta esperada"},
    "llm.verdict.failed": {"en": "no answer: {error}", "pt": "sem resposta: {error}"},
    "llm.answer_line": {"en": "LLM, {verdict}: {answer}", "pt": "LLM, {verdict}: {answer}"},
    "llm.no_answer_line": {"en": "LLM, {verdict}", "pt": "LLM, {verdict}"},
    "llm.summary": {"en": "LLM {model}: answer accuracy {accuracy}, refusal precision {precision}, recall {recall}; {calls} calls, {prompt} prompt + {completion} completion tokens", "pt": "LLM {model}: acurácia das respostas {accuracy}, precisão das recusas {precision}, revocação {recall}; {calls} chamadas, {prompt} tokens de prompt + {completion} de resposta"},
    "llm.counter": {"en": "context tokens counted with {counter}", "pt": "tokens do contexto contados com {counter}"},
    "llm.counter_estimate": {"en": "context tokens estimated as words and punctuation (tiktoken's cl100k is not available here)", "pt": "tokens do contexto estimados como palavras e pontuação (o cl100k do tiktoken não está disponível aqui)"},
    "llm.cut": {"en": "the context was cut to {budget} tokens (--max-context-tokens): {kept} of its characters were sent", "pt": "o contexto foi cortado em {budget} tokens (--max-context-tokens): {kept} dos seus caracteres foram enviados"},
    "llm.flips": {"en": "{n} answers change verdict from A to B:", "pt": "{n} respostas mudam de veredito de A para B:"},
    "llm.verdict.answered": {"en": "answered (the question has no label to judge it by)", "pt": "respondida (a pergunta não tem rótulo para julgá-la)"},
    "llm.app.settings": {"en": "Ask the LLM: model, server and prompt template", "pt": "Perguntar ao LLM: modelo, servidor e modelo de prompt"},
    "llm.app.model": {"en": "Chat model (openai:MODEL)", "pt": "Modelo de chat (openai:MODELO)"},
    "llm.app.base": {"en": "Base URL of an OpenAI-compatible chat API", "pt": "URL base de uma API de chat compatível com a OpenAI"},
    "llm.app.key": {"en": "API key (kept in this session only)", "pt": "Chave da API (guardada só nesta sessão)"},
    "llm.app.key_help": {"en": "Left empty, the server's RAGVIZ_LLM_API_KEY or OPENAI_API_KEY is used; local servers need none. Never in a link, a workspace file or a download.", "pt": "Vazia, vale a RAGVIZ_LLM_API_KEY ou OPENAI_API_KEY do servidor; servidores locais não precisam. Nunca vai para um link, um arquivo de workspace ou um download."},
    "llm.app.max_tokens": {"en": "Longest answer (tokens; empty: the server's)", "pt": "Resposta mais longa (tokens; vazio: a do servidor)"},
    "llm.app.budget": {"en": "Context budget (tokens; empty: no cut)", "pt": "Orçamento do contexto (tokens; vazio: sem corte)"},
    "llm.app.template": {"en": "Prompt template ({context} and {question})", "pt": "Modelo de prompt ({context} e {question})"},
    "llm.app.none": {"en": "No language model is set. To ask a local one: run `ollama serve` (and `ollama pull llama3.2`), then enter openai:llama3.2 as the model and http://localhost:11434/v1 as the base URL.", "pt": "Nenhum modelo de linguagem definido. Para perguntar a um local: rode `ollama serve` (e `ollama pull llama3.2`), depois digite openai:llama3.2 como modelo e http://localhost:11434/v1 como URL base."},
    "llm.app.ask": {"en": "Ask the LLM ({n} prompts not answered yet)", "pt": "Perguntar ao LLM ({n} prompts ainda sem resposta)"},
    "llm.app.cancel": {"en": "Cancel (the answers so far are kept)", "pt": "Cancelar (as respostas até aqui ficam)"},
    "llm.app.progress": {"en": "Asking: {done} of {total} prompts answered", "pt": "Perguntando: {done} de {total} prompts respondidos"},
    "llm.app.cut": {"en": "The context was cut to {budget} tokens ({counter}): its first {kept} characters are sent.", "pt": "O contexto foi cortado em {budget} tokens ({counter}): seus primeiros {kept} caracteres são enviados."},
    "llm.asking": {"en": "asking {model}: {done} of {total} questions", "pt": "perguntando a {model}: {done} de {total} perguntas"},
    # --- production indexes (ragviz.index) -----------------------------------------------------
    "index.vector_not_numbers": {"en": "{where}: the vector is not a list of numbers", "pt": "{where}: o vetor não é uma lista de números"},
    "index.vector_not_finite": {"en": "{where}: the stored vector holds NaN or infinite values; rebuild that chunk's vector", "pt": "{where}: o vetor guardado contém valores NaN ou infinitos; refaça o vetor desse chunk"},
    "index.vector_zero": {"en": "{where}: the stored vector is all zeros", "pt": "{where}: o vetor guardado é todo zeros"},
    "index.vector_not_json": {"en": "{where}: the vector is not a JSON list", "pt": "{where}: o vetor não é uma lista JSON"},
    "index.line": {"en": "{name} line {line}", "pt": "{name} linha {line}"},
    "index.row": {"en": "{name} row {row}", "pt": "{name} linha {row}"},
    "index.not_json": {"en": "{where} is not valid JSON ({error})", "pt": "{where} não é JSON válido ({error})"},
    "index.left_out": {"en": "{problem}; it was left out", "pt": "{problem}; ficou de fora"},
    "index.no_readable_chunk": {"en": "{name} holds no readable chunk: {problem}", "pt": "{name} não contém nenhum chunk legível: {problem}"},
    "index.no_chunk": {"en": "{name} holds no chunk", "pt": "{name} não contém nenhum chunk"},
    "index.not_object": {"en": "{where} is not a JSON object", "pt": "{where} não é um objeto JSON"},
    "index.no_text": {"en": "{where} has no page_content or text", "pt": "{where} não tem page_content nem text"},
    "index.metadata_not_object": {"en": "{where}: metadata is not an object", "pt": "{where}: metadata não é um objeto"},
    "index.not_server_address": {"en": "{spec} is not a server address: write chroma+http://HOST:PORT", "pt": "{spec} não é um endereço de servidor: escreva chroma+http://HOST:PORTA"},
    "index.missing": {"en": "{spec} does not exist", "pt": "{spec} não existe"},
    "index.not_an_index": {"en": "{spec} is not an index ragviz reads: give chroma:DIR, chroma+http://HOST:PORT, or a .jsonl, .csv or .parquet file", "pt": "{spec} não é um índice que o ragviz leia: dê chroma:PASTA, chroma+http://HOST:PORTA, ou um arquivo .jsonl, .csv ou .parquet"},
    "index.needs_chromadb": {"en": "reading a Chroma index needs chromadb: pip install 'ragviz[index]'", "pt": "ler um índice Chroma precisa de chromadb: pip install 'ragviz[index]'"},
    "index.collection_empty": {"en": "the collection {name} in {where} is empty", "pt": "a coleção {name} em {where} está vazia"},
    "index.no_collection": {"en": "{where} holds no collection", "pt": "{where} não contém nenhuma coleção"},
    "index.several_collections": {"en": "{where} holds {n} collections ({names}): choose one with --collection", "pt": "{where} contém {n} coleções ({names}): escolha uma com --collection"},
    "index.unknown_collection": {"en": "{where} has no collection {name} (collections: {known})", "pt": "{where} não tem a coleção {name} (coleções: {known})"},
    "index.chroma_not_folder": {"en": "{path} is not a folder (a Chroma index is a folder holding chroma.sqlite3)", "pt": "{path} não é uma pasta (um índice Chroma é uma pasta com chroma.sqlite3)"},
    "index.chroma_no_sqlite": {"en": "{path} is not a Chroma directory: it holds no chroma.sqlite3", "pt": "{path} não é uma pasta do Chroma: não contém chroma.sqlite3"},
    "index.server_silent": {"en": "{where} does not answer ({reason}); check the address and that the server runs", "pt": "{where} não responde ({reason}); confira o endereço e se o servidor está no ar"},
    "index.no_text_column": {"en": "{name} has no text column (one of {columns})", "pt": "{name} não tem coluna de texto (uma de {columns})"},
    "index.not_a_table": {"en": "{name} cannot be read as a table ({error})", "pt": "{name} não pode ser lido como tabela ({error})"},
    "index.too_many_chunks": {"en": "{name} holds {n} chunks; ragviz loads at most {limit}", "pt": "{name} contém {n} chunks; o ragviz carrega no máximo {limit}"},
    # --- labelled excerpts (ragviz.evaluation.excerpts) ----------------------------------------
    "excerpt.no_file": {"en": 'no file {file} in the corpus', "pt": 'nenhum arquivo {file} no corpus'},
    "excerpt.the_file": {"en": 'the file', "pt": 'o arquivo'},
    "excerpt.offsets": {"en": "offsets {start}–{end} do not slice {file} to the excerpt's content", "pt": 'os offsets {start}–{end} não recortam de {file} o conteúdo do trecho'},
    "excerpt.question": {"en": 'question {question}', "pt": 'pergunta {question}'},
    "excerpt.left_out": {"en": '{where}: excerpt {n}: {why}; the row is left out.', "pt": '{where}: trecho {n}: {why}; a linha fica de fora.'},
    # --- chunker parameters' labels and units, by name (ragviz.chunking) ------------------------
    "param_label.size": {"en": "size", "pt": "tamanho"},
    "param_label.max_chars": {"en": "max_chars", "pt": "max_chars"},
    "param_label.overlap": {"en": "overlap", "pt": "sobreposição"},
    "param_label.overlap_sentences": {"en": "overlap", "pt": "sobreposição"},
    "param_label.overlap_paragraphs": {"en": "overlap", "pt": "sobreposição"},
    "param_label.threshold": {"en": "threshold", "pt": "limiar"},
    "param_label.percentile": {"en": "percentile", "pt": "percentil"},
    "param_label.chunk_size": {"en": "chunk_size", "pt": "tamanho do chunk"},
    "param_label.chunk_overlap": {"en": "chunk_overlap", "pt": "sobreposição do chunk"},
    "param_label.min_characters_per_chunk": {"en": "min_characters_per_chunk", "pt": "mín. caracteres por chunk"},
    "param_label.min_sentences_per_chunk": {"en": "min_sentences_per_chunk", "pt": "mín. frases por chunk"},
    "unit.characters": {"en": "characters", "pt": "caracteres"},
    "unit.tokens": {"en": "tokens", "pt": "tokens"},
    "unit.sentences": {"en": "sentences", "pt": "frases"},
    "unit.paragraphs": {"en": "paragraphs", "pt": "parágrafos"},
    "unit.cosine": {"en": "cosine", "pt": "cosseno"},
    "unit_count.characters": {"en": "{n} characters", "pt": "{n} caracteres"},
    "unit_count.characters.one": {"en": "{n} character", "pt": "{n} caractere"},
    "unit_count.tokens": {"en": "{n} tokens", "pt": "{n} tokens"},
    "unit_count.tokens.one": {"en": "{n} token", "pt": "{n} token"},
    "unit_count.sentences": {"en": "{n} sentences", "pt": "{n} frases"},
    "unit_count.sentences.one": {"en": "{n} sentence", "pt": "{n} frase"},
    "unit_count.paragraphs": {"en": "{n} paragraphs", "pt": "{n} parágrafos"},
    "unit_count.paragraphs.one": {"en": "{n} paragraph", "pt": "{n} parágrafo"},
    "unit_count.percent": {"en": "{n} %", "pt": "{n} %"},
    "unit_count.percent.one": {"en": "{n} %", "pt": "{n} %"},
    # --- the prompt a language model would get (ragviz.retrieval.decision) --------------------
    "prompt.template": {"en": "Answer using ONLY the excerpts below. If the answer is not in them, say you do not know.\n\nExcerpts:\n{context}\n\nQuestion: {question}", "pt": "Responda usando APENAS os trechos abaixo. Se a resposta não estiver neles, diga que não sabe.\n\nTrechos:\n{context}\n\nPergunta: {question}"},
    "workspace.the_file": {"en": "the workspace file", "pt": "o arquivo de workspace"},
    "workspace.not_object": {"en": "{where} must be an object", "pt": "{where} deve ser um objeto"},
    "workspace.answerable": {"en": "{where}: 'answerable' must be true, false or null", "pt": "{where}: 'answerable' deve ser true, false ou null"},
    "workspace.empty_question": {"en": "{where}: the question is empty", "pt": "{where}: a pergunta está vazia"},
    "workspace.unanswerable_with_answer": {"en": "{where}: an unanswerable question cannot have an expected answer", "pt": "{where}: uma pergunta sem resposta não pode ter resposta esperada"},
    "workspace.whitespace": {"en": "{where}: surrounding whitespace in question or answer", "pt": "{where}: espaços em volta da pergunta ou da resposta"},
    "workspace.unknown_chunker": {"en": "{where}: unknown chunker {got}", "pt": "{where}: chunker desconhecido {got}"},
    "workspace.sample": {"en": "{where}: 'sample' must be a name or null", "pt": "{where}: 'sample' deve ser um nome ou null"},
    "link.the_document": {"en": "the link's document", "pt": "o documento do link"},
    "link.document_too_long": {"en": "the link's document is longer than any link ragviz makes", "pt": "o documento do link é mais longo que qualquer link que o ragviz faz"},
    "link.damaged": {"en": "the link's document is damaged ({why})", "pt": "o documento do link está danificado ({why})"},
    "link.bad_characters": {"en": "it holds characters a link cannot", "pt": "contém caracteres que um link não pode ter"},
    "link.mistyped": {"en": "it is cut or mistyped", "pt": "está cortado ou digitado errado"},
    "link.no_unpack": {"en": "it does not unpack", "pt": "não se descompacta"},
    "link.cut_short": {"en": "it is cut short", "pt": "está incompleto"},
    "link.unpacks_too_much": {"en": "the link's document unpacks to more than a workspace may hold", "pt": "o documento do link se expande para mais do que um workspace pode conter"},
    "link.not_a_workspace": {"en": "{what} could not be read as a workspace", "pt": "{what} não pôde ser lido como workspace"},
    "link.number_too_large": {"en": "{what}, configuration {side}: {name} {got} is too large", "pt": "{what}, configuração {side}: {name} {got} é grande demais"},
    "scorer.unknown": {"en": "unknown scorer {name}: choose one of {known}", "pt": "scorer desconhecido {name}: escolha um de {known}"},
    "scorer.floor_range": {"en": "the floor {floor} is off this scorer's scale: give a number from {low} to {high}", "pt": "o piso {floor} está fora da escala deste scorer: dê um número de {low} a {high}"},
    "scorer.no_options": {"en": "the scorer {name} takes no options: give its name alone", "pt": "o scorer {name} não aceita opções: dê só o nome dele"},
    "scorer.bad_option": {"en": "the scorer option {option} in {spec} is not name=value: write it as bm25(stopwords=en)", "pt": "a opção de scorer {option} em {spec} não é nome=valor: escreva como bm25(stopwords=en)"},
    "scorer.option_value": {"en": "the {scorer} scorer's option {option} cannot be {value}: choose {allowed}", "pt": "a opção {option} do scorer {scorer} não pode ser {value}: escolha {allowed}"},
    "rerank.needs_model": {"en": "sentence-max reranks with the embedding model, and none was given", "pt": "sentence-max reordena com o modelo de embedding, e nenhum foi dado"},
    "rerank.cannot_load": {"en": "the reranker {model} could not be loaded ({reason}): give a sentence-transformers CrossEncoder id (a download needs network access), a local folder, sentence-max or api:NAME", "pt": "o reranker {model} não pôde ser carregado ({reason}): dê um id de CrossEncoder do sentence-transformers (baixar precisa de rede), uma pasta local, sentence-max ou api:NOME"},
    "rerank.no_model": {"en": "rerank(...) must name its model first: rerank(sentence-max,depth=20)", "pt": "rerank(...) deve nomear o modelo primeiro: rerank(sentence-max,depth=20)"},
    "rerank.api_needs_base": {"en": "a rerank API needs a model name and a base URL (http:// or https://host[:port][/path]): --rerank api:NAME --rerank-base URL", "pt": "uma API de rerank precisa de um nome de modelo e de uma URL base (http:// ou https://host[:porta][/caminho]): --rerank api:NOME --rerank-base URL"},
    "rerank.timeout": {"en": "the rerank API at {base} did not answer within {seconds} s", "pt": "a API de rerank em {base} não respondeu em {seconds} s"},
    "rerank.unreachable": {"en": "the rerank API at {base} could not be reached: check the URL and that the server runs", "pt": "a API de rerank em {base} não pôde ser alcançada: confira a URL e se o servidor está rodando"},
    "rerank.redirect": {"en": "the rerank API at {base} answered with a redirect, which ragviz never follows: give the final URL", "pt": "a API de rerank em {base} respondeu com um redirecionamento, que o ragviz nunca segue: dê a URL final"},
    "rerank.not_json": {"en": "the rerank API at {base} did not answer JSON (is it a rerank server?)", "pt": "a API de rerank em {base} não respondeu JSON (é um servidor de rerank?)"},
    "rerank.unauthorized": {"en": "the rerank API at {base} refused the key: set {env}", "pt": "a API de rerank em {base} recusou a chave: defina {env}"},
    "rerank.rate_limited": {"en": "the rerank API at {base} is rate-limiting (429) even after waiting: try again later", "pt": "a API de rerank em {base} está limitando a taxa (429) mesmo após esperar: tente mais tarde"},
    "rerank.status": {"en": "the rerank API at {base} failed with HTTP {status}", "pt": "a API de rerank em {base} falhou com HTTP {status}"},
    "rerank.bad_results": {"en": "the rerank API's answer is not one score per document ({why})", "pt": "a resposta da API de rerank não é um score por documento ({why})"},
    "scorer.needs_stemmer": {"en": "a BM25 stemmer needs PyStemmer: pip install PyStemmer", "pt": "um stemmer do BM25 precisa do PyStemmer: pip install PyStemmer"},
    "why.needs_label": {"en": "give the question an expected answer or mark it unanswerable", "pt": "dê à pergunta uma resposta esperada ou marque-a como sem resposta"},
    "link.not_a_number": {"en": "{param}={got} is not a number", "pt": "{param}={got} não é um número"},
    "link.not_a_chunker": {"en": "{param}={got} is not a chunker", "pt": "{param}={got} não é um chunker"},
    "link.side_value": {"en": "{side}_{error}", "pt": "{side}_{error}"},
    "link.side_config": {"en": "{side}: {error}", "pt": "{side}: {error}"},
    "link.overlap_fitted": {"en": "{side}: {overlap} set to {fitted}, the most that fits under {size_name} {size}.", "pt": "{side}: {overlap} passou a {fitted}, o máximo que cabe abaixo de {size_name} {size}."},
    "link.overlap_too_large": {"en": "{side}: {param}={got} does not fit under {size_name} {size}; it was set to {fitted}, the most that fits.", "pt": "{side}: {param}={got} não cabe abaixo de {size_name} {size}; passou a {fitted}, o máximo que cabe."},
    "link.chunkers_unreadable": {"en": "the chunker settings of the link could not be read", "pt": "os parâmetros de chunker do link não puderam ser lidos"},
    "link.value_error": {"en": "{param}: {error}", "pt": "{param}: {error}"},
    "link.unreadable": {"en": "{param}={got} could not be read", "pt": "{param}={got} não pôde ser lido"},
    "link.not_a_slider_number": {"en": "{param}={got} is not a number the slider can hold", "pt": "{param}={got} não é um número que o controle aceite"},
    "link.not_whole": {"en": "{got} is not a whole number", "pt": "{got} não é um número inteiro"},
    "link.not_number": {"en": "{got} is not a number", "pt": "{got} não é um número"},
    "link.not_sample": {"en": "{got} is not a sample", "pt": "{got} não é um exemplo"},
    "index.vectors_missing": {"en": "{n} of {total} chunks of {name} have no stored vector", "pt": "{n} de {total} chunks de {name} não têm vetor guardado"},
    "index.mixed_dimensions": {"en": "the vectors of {name} have different dimensions ({sizes})", "pt": "os vetores de {name} têm dimensões diferentes ({sizes})"},
    "chart.more_chunks": {
        "en": "the {shown} best of {total} chunks",
        "pt": "os {shown} melhores de {total} chunks",
    },
    # --- merged from issues 20-23 (evaluation, index database mode, peers, map) ---
    'diagnosis.ann_miss': {"en": 'The index\'s approximate search left {chunk} out of its top {top_k}, where exact search ranks it {rank}; over these questions the index returned {recall} of the exact top-{top_k} chunks: raise {settings} so it searches wider (slower, closer to exact).', "pt": 'A busca aproximada do índice deixou {chunk} fora do top {top_k}, onde a busca exata o põe em {rank}º; nestas perguntas o índice devolveu {recall} dos trechos do top-{top_k} exato: aumente {settings} para ele buscar mais longe (mais lento, mais perto do exato).'},
    'diagnosis.duplicate_crowding': {"en": 'Copies of the same passage ({chunks}) take {places} places of the top {top_k}, crowding out other passages.', "pt": 'Cópias do mesmo trecho ({chunks}) ocupam {places} lugares do top {top_k}, tirando o lugar de outros trechos.'},
    'excerpt.text': {"en": "the excerpt's text is not in the corpus", "pt": 'o texto do trecho não está no corpus'},
    'excerpt.line': {"en": 'line {line}', "pt": 'linha {line}'},
    "coverage.evaluated": {"en": "Evaluated {evaluated} of {given} questions: every mean, count and change here is over those {evaluated}.", "pt": "Avaliadas {evaluated} de {given} perguntas: toda média, contagem e mudança aqui é sobre essas {evaluated}."},
    "coverage.no-file": {"en": "{n} questions left out: their file is not in the corpus ({files}); give it, or check corpus_id.", "pt": "{n} perguntas ficaram de fora: o arquivo delas não está no corpus ({files}); inclua-o ou confira o corpus_id."},
    "coverage.offsets": {"en": "{n} questions left out: an excerpt's offsets do not slice its file to its content (first: {where}); check the offsets against the file.", "pt": "{n} perguntas ficaram de fora: os offsets de um trecho não recortam do arquivo o seu conteúdo (a primeira: {where}); confira os offsets no arquivo."},
    "coverage.text": {"en": "{n} questions left out: an excerpt's text is in no file of the corpus (first: {where}); check the excerpts.", "pt": "{n} perguntas ficaram de fora: o texto de um trecho não está em nenhum arquivo do corpus (a primeira: {where}); confira os trechos."},
    'excerpt.left_out_row': {"en": 'Row {row} (“{question}”): excerpt {n}: {why}; the question is left out of the evaluation and stays in the table.', "pt": 'Linha {row} (“{question}”): trecho {n}: {why}; a pergunta fica fora da avaliação e continua na tabela.'},
    'peers.chonkie_needs_hf_tokenizer': {"en": "Chonkie's TokenChunker takes a Hugging Face tokenizer, which {model} does not have: choose minilm-en or another sentence-transformers model", "pt": 'O TokenChunker do Chonkie recebe um tokenizador do Hugging Face, que {model} não tem: escolha minilm-en ou outro modelo sentence-transformers'},
    'index.mode_database': {"en": "The database retrieved: {name} holds {count} chunks (ragviz loads at most {limit}), so each question's top {top_k} plus {margin} and the chunks holding its expected answer were asked of the database; {fetched} chunks were diagnosed.", "pt": 'O banco de dados recuperou: {name} tem {count} chunks (o ragviz carrega no máximo {limit}), então o top {top_k} de cada pergunta mais {margin} e os chunks com a resposta esperada foram pedidos ao banco; {fetched} chunks foram diagnosticados.'},
    "index.mrr_past_depth": {
        "en": "{n} questions hold their answer past the top {depth} asked of the database: their rank is counted among the diagnosed chunks only, where it can be better than in the whole index, so MRR may read up to {excess} high.",
        "pt": "{n} perguntas têm a resposta além do top {depth} pedido ao banco: a posição delas é contada só entre os chunks diagnosticados, onde pode ser melhor que no índice inteiro, então o MRR pode aparecer até {excess} acima.",
    },
    "index.mrr_past_depth.one": {
        "en": "{n} question holds its answer past the top {depth} asked of the database: its rank is counted among the diagnosed chunks only, where it can be better than in the whole index, so MRR may read up to {excess} high.",
        "pt": "{n} pergunta tem a resposta além do top {depth} pedido ao banco: a posição dela é contada só entre os chunks diagnosticados, onde pode ser melhor que no índice inteiro, então o MRR pode aparecer até {excess} acima.",
    },
    'index.too_large': {"en": '{name} holds {count} chunks; ragviz loads at most {limit}: let the database retrieve with --index-mode database (a Chroma index)', "pt": '{name} tem {count} chunks; o ragviz carrega no máximo {limit}: deixe o banco recuperar com --index-mode database (um índice Chroma)'},
    'index.empty_collection': {"en": '{name}: empty (0 chunks), nothing to diagnose', "pt": '{name}: vazia (0 chunks), nada a diagnosticar'},
    'index.not_loaded': {"en": '{name}: {count} chunks, dimension {dimension}; past the {limit} ragviz loads, so not read here: ragviz eval --index lets the database retrieve', "pt": '{name}: {count} chunks, dimensão {dimension}; acima dos {limit} que o ragviz carrega, por isso não foi lida aqui: ragviz eval --index deixa o banco recuperar'},
    'index.cannot_retrieve': {"en": '{name} is a file: it is read whole, the database mode needs a Chroma index', "pt": '{name} é um arquivo: é lido inteiro, o modo banco precisa de um índice Chroma'},
    'map.caption': {"en": "Each point is a chunk (A ●, B ■), sized by its length; each ◆ is a question, placed with the chunks' projection, not fitted with them.", "pt": 'Cada ponto é um chunk (A ●, B ■), do tamanho do seu texto; cada ◆ é uma pergunta, posicionada com a projeção dos chunks, sem entrar no ajuste.'},
    'map.caption_pca': {"en": "PCA keeps the two directions along which the chunks spread most: far apart on the map is far for the model, but two points drawn close may still differ along the directions left out. The scores on the Questions tab are the model's own.", "pt": "O PCA mantém as duas direções em que os chunks mais se espalham: longe no mapa é longe para o modelo, mas dois pontos desenhados perto ainda podem diferir nas direções deixadas de fora. Os scores da aba Perguntas são os do próprio modelo."},
    'map.caption_umap': {"en": "UMAP keeps who is near whom, not how far: a question's top chunk can be drawn farther away than its second, and distances between groups mean little. The scores on the Questions tab are the model's own.", "pt": "O UMAP mantém quem está perto de quem, não a que distância: o primeiro chunk de uma pergunta pode aparecer mais longe que o segundo, e a distância entre grupos pouco significa. Os scores da aba Perguntas são os do próprio modelo."},
    'map.key_question': {"en": 'question', "pt": 'pergunta'},
}
