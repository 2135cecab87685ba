"""The app's own strings (views, walkthrough, charts, sharing panel) in both languages.

Kept out of the core's catalog, which serves the CLI and the report too; importing
``ragviz_app`` registers them into ``ragviz.i18n`` so ``t`` finds them like any other key.
"""

from __future__ import annotations

from ragviz.i18n import register

APP: dict[str, dict[str, str]] = {
    "app.questions_cut": {"en": "{n} questions; only the first {limit} are used.", "pt": "{n} perguntas; só as primeiras {limit} são usadas."},
    "app.answerable_refused_help": {
        "en": "Answerable questions the floor refuses: the floor's cost, next to the "
              "unanswerable ones it refuses rightly.",
        "pt": "Perguntas respondíveis que o piso recusa: o custo do piso, ao lado das sem "
              "resposta que ele recusa com razão.",
    },
    # --- guided replay of the article (ragviz_app.walkthrough) ------------------------------
    "walk.fixed.title": {"en": "1 · Fixed-size chunks", "pt": "1 · Chunks de tamanho fixo"},
    "walk.fixed.body": {
        "en": "The refund policy is cut every 120 characters, blind to its content: {n_fixed} chunks. "
        "A red | marks a cut inside a word, an orange | a cut inside a sentence: chunk #{winner} "
        "ends in “{winner_end}”, half of a word.",
        "pt": "A política de reembolso é cortada a cada 120 caracteres, sem olhar o conteúdo: "
        "{n_fixed} chunks. Um | vermelho marca um corte no meio de uma palavra, um | laranja no "
        "meio de uma frase: o chunk #{winner} termina em “{winner_end}”, meia palavra.",
    },
    "walk.fixed.body_whole": {
        "en": "The refund policy is cut every 120 characters, blind to its content: {n_fixed} chunks. "
        "A red | marks a cut inside a word, an orange | a cut inside a sentence: chunk #{winner} "
        "ends in “{winner_end}”.",
        "pt": "A política de reembolso é cortada a cada 120 caracteres, sem olhar o conteúdo: "
        "{n_fixed} chunks. Um | vermelho marca um corte no meio de uma palavra, um | laranja no "
        "meio de uma frase: o chunk #{winner} termina em “{winner_end}”.",
    },
    "walk.cut.title": {"en": "2 · The answer is cut away", "pt": "2 · A resposta fica cortada"},
    "walk.cut.subject": {"en": "it says “{word}”", "pt": "ele diz “{word}”"},
    "walk.cut.no_subject": {"en": "it does not even say “{word}”",
                            "pt": "ele nem diz “{word}”"},
    "walk.cut.body": {
        "en": "“Qual o prazo do reembolso?” is won by chunk #{winner} ({winner_score}): "
        "{cut_subject}, and the deadline it holds, “{other_answer}”, answers another question "
        "(“{other_question}”). The refund's “{refund_answer}” sits in chunk #{holder}. With "
        "top_k = 1 the model gets a deadline, the wrong one: it may well answer "
        "“{other_answer}”, a wrong answer rather than a refusal.",
        "pt": "“Qual o prazo do reembolso?” é vencida pelo chunk #{winner} ({winner_score}): "
        "{cut_subject}, e o prazo que ele traz, “{other_answer}”, responde outra pergunta "
        "(“{other_question}”). O “{refund_answer}” do reembolso está no chunk #{holder}. Com "
        "top_k = 1 o modelo recebe um prazo, o errado: é bem possível que responda "
        "“{other_answer}”, uma resposta errada em vez de uma recusa.",
    },
    "walk.cut.body_no_other": {
        "en": "“Qual o prazo do reembolso?” is won by chunk #{winner} ({winner_score}): "
        "{cut_subject}, but holds none of the labelled answers; the refund's "
        "“{refund_answer}” sits in chunk #{holder}. With top_k = 1 the model gets a context "
        "without the answer: it can only refuse or guess.",
        "pt": "“Qual o prazo do reembolso?” é vencida pelo chunk #{winner} ({winner_score}): "
        "{cut_subject}, mas não traz nenhuma das respostas rotuladas; o “{refund_answer}” do "
        "reembolso está no chunk #{holder}. Com top_k = 1 o modelo recebe um contexto sem a "
        "resposta: só pode recusar ou chutar.",
    },
    "walk.cut.body_found": {
        "en": "“Qual o prazo do reembolso?” is won by chunk #{winner} ({winner_score}), and with this "
        "model that chunk already holds “7 dias úteis”: here the cut does not cost the answer. "
        "The article's model ranks the subject first and loses the deadline.",
        "pt": "“Qual o prazo do reembolso?” é vencida pelo chunk #{winner} ({winner_score}), e com "
        "este modelo esse chunk já contém “7 dias úteis”: aqui o corte não custa a resposta. O "
        "modelo do artigo põe o assunto em primeiro e perde o prazo.",
    },
    "walk.sentence.title": {"en": "3 · Sentence chunks", "pt": "3 · Chunks por frase"},
    "walk.sentence.body": {
        "en": "Now chunks end only at sentence ends, and one sentence repeats between neighbours. "
        "The refund chunk #{sentence_winner} holds subject and deadline together and wins with "
        "{sentence_score}. hit@1 over the {n_answerable} answerable questions: {hit_fixed} → "
        "{hit_sentence}.",
        "pt": "Agora os chunks terminam só em fim de frase, e uma frase se repete entre vizinhos. "
        "O chunk #{sentence_winner} traz assunto e prazo juntos e vence com {sentence_score}. "
        "hit@1 nas {n_answerable} perguntas respondíveis: {hit_fixed} → {hit_sentence}.",
    },
    "walk.sentence.body_missed": {
        "en": "Now chunks end only at sentence ends, and one sentence repeats between neighbours. "
        "With this model the refund question is still won by chunk #{sentence_winner} "
        "({sentence_score}), which does not hold the deadline. hit@1 over the {n_answerable} "
        "answerable questions: {hit_fixed} → {hit_sentence}.",
        "pt": "Agora os chunks terminam só em fim de frase, e uma frase se repete entre vizinhos. "
        "Com este modelo a pergunta do reembolso ainda é vencida pelo chunk #{sentence_winner} "
        "({sentence_score}), que não traz o prazo. hit@1 nas {n_answerable} perguntas "
        "respondíveis: {hit_fixed} → {hit_sentence}.",
    },
    "walk.context.title": {
        "en": "5 · The unanswerable question still gets context",
        "pt": "5 · A pergunta sem resposta ainda recebe contexto",
    },
    "walk.context.body": {
        "en": "The document does not know the wifi password, yet top_k hands over {wifi_hits} chunks "
        "anyway (best score {wifi_best}): cosine similarity is never zero. Told to answer from the "
        "context, the model answers with what it got.",
        "pt": "O documento não sabe a senha do wifi, mas o top_k entrega {wifi_hits} chunks mesmo "
        "assim (melhor score {wifi_best}): similaridade nunca volta zero. Instruído a responder com "
        "base no contexto, o modelo responde com o que tem.",
    },
    "walk.measured.title": {"en": "6 · The floor, measured", "pt": "6 · O piso, medido"},
    "walk.measured.body": {
        "en": "Each dot is one labelled question's best score. The lowest answerable scores {lowest}, "
        "the highest unanswerable {highest}: a margin of {margin}. The floor goes between them, "
        "at {floor}: measured on this model, not guessed.",
        "pt": "Cada ponto é o melhor score de uma pergunta rotulada. A menor respondível pontua "
        "{lowest}, a maior sem resposta {highest}: margem de {margin}. O piso fica entre elas, em "
        "{floor}: medido neste modelo, não chutado.",
    },
    "walk.measured.body_overlap": {
        "en": "Each dot is one labelled question's best score. The lowest answerable scores {lowest}, "
        "the highest unanswerable {highest}: with this model the groups overlap (margin {margin}) "
        "and no floor separates them. The floor at {floor} costs the fewest errors: "
        "{false_refusals}, {false_answers}.",
        "pt": "Cada ponto é o melhor score de uma pergunta rotulada. A menor respondível pontua "
        "{lowest}, a maior sem resposta {highest}: com este modelo os grupos se sobrepõem (margem "
        "{margin}) e nenhum piso os separa. O piso em {floor} é o que custa menos erros: "
        "{false_refusals}, {false_answers}.",
    },
    "walk.refused.title": {"en": "7 · Refused instead of invented", "pt": "7 · Recusa em vez de invenção"},
    "walk.refused.body": {
        "en": "With the floor at {floor} the wifi question ({wifi_best}) is refused: no LLM call, one "
        "hallucination less. The floor holds for this model and these questions only; with many real "
        "questions the groups overlap, and you choose the error that costs less.",
        "pt": "Com o piso em {floor} a pergunta do wifi ({wifi_best}) é recusada: uma chamada de API a "
        "menos e uma alucinação a menos. O piso vale só para este modelo e estas perguntas; com muitas "
        "perguntas reais os grupos se sobrepõem, e você escolhe o erro que custa menos.",
    },
    "walk.refused.body_answered": {
        "en": "With the floor at {floor} the wifi question ({wifi_best}) still passes: with this "
        "model its best score is not under the floor, so it gets context it cannot answer from. "
        "A floor holds for one model and one set of questions only; measure it again here.",
        "pt": "Com o piso em {floor} a pergunta do wifi ({wifi_best}) ainda passa: com este modelo "
        "o melhor score dela não fica abaixo do piso, então ela recebe contexto que não a "
        "responde. Um piso vale para um modelo e um conjunto de perguntas só; meça de novo aqui.",
    },
    "walk.toggle": {"en": "Guided replay of the article", "pt": "Replay guiado do artigo"},
    "walk.toggle_help": {
        "en": "Six steps through the article's experiment, for a projector. Your own document and questions are kept.",
        "pt": "Seis passos pelo experimento do artigo, para projetor. Seu documento e suas perguntas são mantidos.",
    },
    "walk.progress": {"en": "Step {n} of {total}", "pt": "Passo {n} de {total}"},
    "walk.back": {"en": "◀ Back", "pt": "◀ Voltar"},
    "walk.next": {"en": "Next ▶", "pt": "Próximo ▶"},
    "walk.exit": {"en": "Leave the replay", "pt": "Sair do replay"},
    "walk.settings": {
        "en": "On screen: {config} · top_k {k} · floor {floor} · model {model}",
        "pt": "Na tela: {config} · top_k {k} · piso {floor} · modelo {model}",
    },
    "app.model_placeholder": {"en": "owner/model or /path/to/folder", "pt": "dono/modelo ou /caminho/da/pasta"},
    "walk.explore": {"en": "Explore this step ▶", "pt": "Explorar este passo ▶"},
    "walk.explore_help": {
        "en": "Leave the replay with the explorer set as this step (loads the article's sample).",
        "pt": "Sai do replay com o explorador ajustado como este passo (carrega o exemplo do artigo).",
    },
    "walk.no_floor": {
        "en": "{floor}, the slider's lowest (no floor yet: every chunk in top_k passes)",
        "pt": "{floor}, o mínimo do controle (ainda sem piso: todo chunk no top_k passa)",
    },
    # --- sharing (workspace, URL, downloads) ----------------------------------------------
    "app.url_note": {"en": "Fitted from the link: {note}", "pt": "Ajustado a partir do link: {note}"},
    "app.url_problem": {"en": "The link has a value that was ignored: {problem}", "pt": "O link tem um valor que foi ignorado: {problem}"},
    "app.share": {"en": "Save and share", "pt": "Salvar e compartilhar"},
    "app.workspace_loaded": {"en": "Workspace loaded.", "pt": "Workspace carregado."},
    "app.workspace_refused": {"en": "Workspace not loaded: {error}", "pt": "Workspace não carregado: {error}"},
    "app.export_workspace": {"en": "Export workspace (JSON)", "pt": "Exportar workspace (JSON)"},
    "app.import_workspace": {"en": "Import a workspace", "pt": "Importar um workspace"},
    "app.import_workspace_help": {
        "en": "A .json file exported by ragviz: document, questions, every setting and the model.",
        "pt": "Um arquivo .json exportado pelo ragviz: documento, perguntas, todas as configurações e o modelo.",
    },
    "app.download_report": {"en": "Download report (HTML)", "pt": "Baixar relatório (HTML)"},
    "app.download_results": {"en": "Download results (CSV)", "pt": "Baixar resultados (CSV)"},
    "app.download_chunks": {"en": "Download chunk table (CSV)", "pt": "Baixar tabela de chunks (CSV)"},
    # --- app interface (streamlit_app.py) -----------------------------------------------
    "app.title": {
        "en": "Why did retrieval return the wrong passage?",
        "pt": "Por que a busca devolveu o trecho errado?",
    },
    "app.subtitle": {
        "en": "Chunks drawn over the document, every question's score against every chunk, "
              "top_k and the score floor — on a real embedding model.",
        "pt": "Chunks desenhados sobre o documento, o score de cada pergunta contra cada chunk, "
              "top_k e o piso de score — num modelo de embedding real.",
    },
    "app.language": {"en": "Language", "pt": "Idioma"},
    "app.document": {"en": "Document", "pt": "Documento"},
    "app.source": {"en": "Source", "pt": "Origem"},
    "app.source_sample": {"en": "Sample", "pt": "Exemplo"},
    "app.source_paste": {"en": "Paste", "pt": "Colar"},
    "app.source_upload": {"en": "Upload", "pt": "Enviar"},
    "app.sample": {"en": "Sample document", "pt": "Documento de exemplo"},
    "app.paste": {"en": "Document text", "pt": "Texto do documento"},
    "app.paste_help": {
        "en": "Up to {limit} characters.", "pt": "Até {limit} caracteres.",
    },
    "app.upload": {
        "en": "Files (.txt, .md, .html, .pdf, .docx, or a .zip of them)",
        "pt": "Arquivos (.txt, .md, .html, .pdf, .docx ou um .zip deles)",
    },
    "app.upload_help": {
        "en": "UTF-8 preferred; up to {chars} characters of text per file ({limit} MB for a "
              "text file, {binary} MB for a PDF or Word file).",
        "pt": "De preferência UTF-8; até {chars} caracteres de texto por arquivo ({limit} MB "
              "para um arquivo de texto, {binary} MB para um PDF ou Word).",
    },
    "app.upload_wait": {
        "en": "Upload one or more files (.txt, .md, .html, .pdf, .docx or .zip) to analyse "
              "them.",
        "pt": "Envie um ou mais arquivos (.txt, .md, .html, .pdf, .docx ou .zip) para "
              "analisá-los.",
    },
    "app.encoding_guessed": {
        "en": "The file is not UTF-8; it was read as {encoding}. Check accented letters.",
        "pt": "O arquivo não é UTF-8; foi lido como {encoding}. Confira os acentos.",
    },
    "app.doc_size": {"en": "{n} characters", "pt": "{n} caracteres"},
    # the knowledge base in the app (kbapp)
    "app.corpus_size": {
        "en": "{files} files, {n} characters", "pt": "{files} arquivos, {n} caracteres",
    },
    "app.corpus_overview": {"en": "The files", "pt": "Os arquivos"},
    "app.corpus_file_pick": {"en": "File to show", "pt": "Arquivo exibido"},
    "app.corpus_not_shared": {
        "en": "The workspace and the link do not carry the {files} files of this corpus: "
              "share the files themselves.",
        "pt": "O workspace e o link não levam os {files} arquivos deste corpus: "
              "compartilhe os próprios arquivos.",
    },
    "app.corpus_sample_not_shared": {
        "en": "A workspace holds one document, so none is offered for the {files} files of "
              "this sample; the link reopens the sample by name.",
        "pt": "Um workspace guarda um documento, por isso nenhum é oferecido para os {files} "
              "arquivos deste exemplo; o link reabre o exemplo pelo nome.",
    },
    "col.file": {"en": "file", "pt": "arquivo"},
    "col.chunks": {"en": "chunks", "pt": "chunks"},
    "col.retrieved": {"en": "in the top {k}", "pt": "no top {k}"},
    "col.retrieved_for": {"en": "for the questions", "pt": "para as perguntas"},
    "app.model": {"en": "Embedding model", "pt": "Modelo de embedding"},
    "app.scorer": {"en": "Scorer", "pt": "Pontuação"},
    "app.scorer_help": {
        "en": "How each chunk is scored against each question (the floor is on its scale).",
        "pt": "Como cada chunk é pontuado para cada pergunta (o piso fica na escala dele).",
    },
    "app.token_help": {"en": "Over the top_k chunks, in characters, as Chroma's chunking report defines them: recall is the share of the expected excerpts retrieved, precision the share of the retrieved text that is excerpt, IoU both at once; mean ± standard deviation over the questions.", "pt": "Sobre os chunks do top_k, em caracteres, como o relatório de chunking do Chroma os define: recall é a parte dos trechos esperados recuperada, precisão a parte do texto recuperado que é trecho, IoU as duas juntas; média ± desvio padrão sobre as perguntas."},
    "app.per_file": {"en": "Metrics per file ({n} files)", "pt": "Métricas por arquivo ({n} arquivos)"},
    "app.per_file_name": {"en": "file", "pt": "arquivo"},
    "app.per_file_questions": {"en": "questions", "pt": "perguntas"},
    "app.retrieval_label": {"en": "Retrieval: {spec}{expand}", "pt": "Recuperação: {spec}{expand}"},
    "app.retrieval_expand": {"en": " · {n} neighbours in the prompt", "pt": " · {n} vizinhos no prompt"},
    "app.reranker": {"en": "Reranker", "pt": "Reranker"},
    "app.reranker_help": {
        "en": "sentence-max rescores the first stage's top 20 chunks by their best sentence "
              "(same model, offline); the reranker's order decides top_k. A CrossEncoder or "
              "a rerank API: ragviz eval --rerank.",
        "pt": "sentence-max repontua os 20 primeiros chunks do primeiro estágio pela melhor "
              "frase (mesmo modelo, offline); a ordem do reranker decide o top_k. Um "
              "CrossEncoder ou uma API de rerank: ragviz eval --rerank.",
    },
    "app.expand": {"en": "Neighbours", "pt": "Vizinhos"},
    "app.expand_help": {
        "en": "Chunks on each side of every hit (same file) added to the prompt: the fix for "
              "an answer split between chunks. Changes the prompt, not the ranking.",
        "pt": "Chunks de cada lado de cada acerto (mesmo arquivo) somados ao prompt: a "
              "correção para uma resposta dividida entre chunks. Muda o prompt, não o ranking.",
    },
    "app.model_custom": {"en": "Other model", "pt": "Outro modelo"},
    "app.model_custom_caption": {
        "en": "any sentence-transformers id or local folder",
        "pt": "qualquer id do sentence-transformers ou pasta local",
    },
    "app.model_id": {"en": "Model id or path", "pt": "Id ou caminho do modelo"},
    "app.model_in_use": {"en": "In use: {name}", "pt": "Em uso: {name}"},
    "app.model_loading": {"en": "Loading {name}…", "pt": "Carregando {name}…"},
    "app.model_failed": {
        "en": "{error} Still using {name}.",
        "pt": "{error} Continuando com {name}.",
    },
    "app.model_empty": {
        "en": "Type a model id or path; until then the last model stays in use.",
        "pt": "Digite um id ou caminho de modelo; até lá o último modelo continua em uso.",
    },
    "app.model_openai": {"en": "OpenAI-compatible API", "pt": "API compatível com OpenAI"},
    "app.model_openai_caption": {
        "en": "OpenAI, Azure, Ollama, vLLM, TEI, Infinity, LM Studio",
        "pt": "OpenAI, Azure, Ollama, vLLM, TEI, Infinity, LM Studio",
    },
    "app.api_base": {"en": "API base URL", "pt": "URL base da API"},
    "app.api_model": {"en": "Model name", "pt": "Nome do modelo"},
    "app.api_key": {"en": "API key", "pt": "Chave da API"},
    "app.api_key_help": {
        "en": "Kept only in this browser session: never in the link, the workspace file or "
              "the report. Empty: OPENAI_API_KEY of the server, if set.",
        "pt": "Fica só nesta sessão do navegador: nunca no link, no arquivo de workspace ou "
              "no relatório. Vazia: OPENAI_API_KEY do servidor, se houver.",
    },
    "app.api_confirm": {
        "en": "This link or file names the embedding API at {base}. Connect only if you "
              "trust it: the texts and the key go there.",
        "pt": "Este link ou arquivo indica a API de embedding em {base}. Conecte só se "
              "confiar nela: os textos e a chave vão para lá.",
    },
    "app.api_connect": {"en": "Connect", "pt": "Conectar"},
    "app.model_confirm": {
        "en": "This link or file names the model {name}. Load it only if you trust it: it "
              "is downloaded from the model hub (or read from the server's models folder).",
        "pt": "Este link ou arquivo indica o modelo {name}. Carregue-o só se confiar nele: "
              "ele é baixado do hub de modelos (ou lido da pasta de modelos do servidor).",
    },
    "app.model_load": {"en": "Load the model", "pt": "Carregar o modelo"},
    "app.api_incomplete": {
        "en": "Enter the API base URL and the model name; until then the last model stays "
              "in use.",
        "pt": "Informe a URL base da API e o nome do modelo; até lá o último modelo "
              "continua em uso.",
    },
    "app.model_b_on": {
        "en": "Configuration B uses another model",
        "pt": "A configuração B usa outro modelo",
    },
    "app.model_b_help": {
        "en": "Compare two models on the same questions: does the production model "
              "separate answerable from unanswerable?",
        "pt": "Compare dois modelos nas mesmas perguntas: o modelo de produção separa as "
              "respondíveis das sem resposta?",
    },
    "app.model_side": {"en": "Model of {config}", "pt": "Modelo da {config}"},
    "app.model_loading_first": {
        "en": "Loading {name} (first time only, ~{seconds} s)…",
        "pt": "Carregando {name} (só na primeira vez, ~{seconds} s)…",
    },
    "app.model_loading_any": {
        "en": "Loading {name} (first time only)…",
        "pt": "Carregando {name} (só na primeira vez)…",
    },
    "app.model_connecting": {
        "en": "Connecting to the embedding API at {base}… (each request waits at most {timeout} s)",
        "pt": "Conectando à API de embedding em {base}… (cada requisição espera no máximo {timeout} s)",
    },
    "app.api_cancel": {"en": "Cancel", "pt": "Cancelar"},
    "app.api_cancelled": {
        "en": "Connecting to the embedding API at {base} was cancelled; the model in use stays. "
              "Change the URL, model or key, or connect again.",
        "pt": "A conexão à API de embedding em {base} foi cancelada; o modelo em uso continua. "
              "Mude a URL, o modelo ou a chave, ou conecte de novo.",
    },
    "app.model_loaded": {
        "en": "Loaded {name} in {seconds} s; it stays loaded while the server runs.",
        "pt": "{name} carregado em {seconds} s; fica carregado enquanto o servidor rodar.",
    },
    "app.models_caption": {
        "en": "Model: {model}", "pt": "Modelo: {model}",
    },
    "app.floor_side": {"en": "Floor {side} · {model}", "pt": "Piso {side} · {model}"},
    "app.floors_why": {
        "en": "A and B use different models, so each keeps its own floor: a floor "
              "calibrated on one model is meaningless on another.",
        "pt": "A e B usam modelos diferentes, então cada uma tem o seu piso: um piso "
              "calibrado num modelo não vale nada em outro.",
    },
    "app.floor_stale": {
        "en": "The floor {floor} of {side} was set on {old}, not on {new}: a floor "
              "calibrated on one model is meaningless on another.",
        "pt": "O piso {floor} de {side} foi definido em {old}, não em {new}: um piso "
              "calibrado num modelo não vale nada em outro.",
    },
    "app.floor_recalibrate": {
        "en": "Recalibrate on {model}: {floor}", "pt": "Recalibrar em {model}: {floor}",
    },
    "app.config_a": {"en": "Configuration A", "pt": "Configuração A"},
    "app.config_b": {"en": "Configuration B", "pt": "Configuração B"},
    "app.chunker": {"en": "Chunker", "pt": "Chunker"},
    "app.peer_call": {"en": "The same call in your pipeline: `{call}`", "pt": "A mesma chamada no seu pipeline: `{call}`"},
    "app.peer_param": {"en": "`{name}`: the library's own name for this parameter of {call}.", "pt": "`{name}`: o nome que a própria biblioteca dá a este parâmetro de {call}."},
    "app.peers_missing": {"en": "The chunkers of {libraries} appear here once installed: pip install '{hint}'", "pt": "Os chunkers de {libraries} aparecem aqui depois de instalados: pip install '{hint}'"},
    "app.semantic_mode": {"en": "Breakpoint from", "pt": "Ponto de corte por"},
    "app.imported_moved": {
        "en": "The link or file sets {name} to {value}; this document's slider cannot hold it and shows {shown}.",
        "pt": "O link ou arquivo define {name} como {value}; o controle deste documento não comporta esse valor e mostra {shown}.",
    },
    "app.config_error": {
        "en": "These settings cannot work: {error}. Change the sliders above.",
        "pt": "Estes parâmetros não funcionam: {error}. Ajuste os controles acima.",
    },
    "app.chunk_count": {"en": "{n} chunks · {label}", "pt": "{n} chunks · {label}"},
    "app.top_k": {"en": "top_k", "pt": "top_k"},
    "app.floor": {"en": "Score floor", "pt": "Piso de score"},
    "app.floor_help": {
        "en": "A question whose best score is under the floor is refused (no LLM call).",
        "pt": "Pergunta cujo melhor score fica abaixo do piso é recusada (sem chamar o LLM). "
              "O controle escreve o piso com ponto (0.19 é 0,19): o Streamlit não permite "
              "vírgula nele; textos e gráficos usam vírgula.",
    },
    "app.apply_floor": {"en": "Apply suggested floor", "pt": "Aplicar piso sugerido"},
    "app.apply_floor_side": {
        "en": "Apply the floor suggested by {side}'s labels ({floor})",
        "pt": "Aplicar o piso sugerido pelos rótulos de {side} ({floor})",
    },
    "app.margin_a": {
        "en": "measured on A's labelled questions; margin {margin}",
        "pt": "medido nas perguntas rotuladas de A; margem {margin}",
    },
    "app.margin_b": {
        "en": "measured on B's labelled questions; margin {margin}",
        "pt": "medido nas perguntas rotuladas de B; margem {margin}",
    },
    "col.references": {"en": "excerpts (JSON)", "pt": "trechos (JSON)"},
    "app.pick_question": {"en": "Question to show ({n} questions: the metrics count them all)",
                          "pt": "Pergunta a mostrar ({n} perguntas: as métricas contam todas)"},
    "app.metrics_labels": {"en": "labels: {labels}", "pt": "rótulos: {labels}"},
    "tab.chunks": {"en": "Document & chunks", "pt": "Documento e chunks"},
    "tab.questions": {"en": "Questions & scores", "pt": "Perguntas e scores"},
    "tab.calibration": {"en": "Calibration", "pt": "Calibração"},
    "tab.compare": {"en": "Compare & sweep", "pt": "Comparar e varrer"},
    "tab.why": {"en": "Why did this fail?", "pt": "Por que falhou?"},
    "app.embedding": {"en": "Embedding chunks of {config}…", "pt": "Gerando embeddings de {config}…"},
    "app.embedding_count": {
        "en": "embedded {done} of {total} chunks", "pt": "{done} de {total} chunks processados",
    },
    "app.truncated": {
        "en": "{n} chunks exceed {limit} tokens; their ends do not affect retrieval.",
        "pt": "{n} chunks passam de {limit} tokens; o final deles não afeta a busca.",
    },
    "col.index": {"en": "chunk", "pt": "chunk"},
    "col.start": {"en": "start", "pt": "início"},
    "col.end": {"en": "end", "pt": "fim"},
    "col.chars": {"en": "characters", "pt": "caracteres"},
    "col.tokens": {"en": "tokens", "pt": "tokens"},
    "col.over_size": {"en": "over size", "pt": "acima do tamanho"},
    "col.truncated": {"en": "truncated", "pt": "truncado"},
    "col.text": {"en": "text", "pt": "texto"},
    "col.question": {"en": "question", "pt": "pergunta"},
    "col.answer": {"en": "expected answer", "pt": "resposta esperada"},
    "col.answerable": {"en": "answerable", "pt": "tem resposta"},
    "col.direction": {"en": "change", "pt": "mudança"},
    "app.questions_help": {
        "en": "Edit, add or delete questions; untick 'answerable' for questions the document "
              "does not answer. Edits apply when you press **Apply questions**; until then "
              "nothing reruns, and applied questions survive changes of tab, language, "
              "chunker, parameters and model.",
        "pt": "Edite, adicione ou apague perguntas; desmarque 'tem resposta' nas que o documento "
              "não responde. As edições valem quando você aperta **Aplicar perguntas**; até lá "
              "nada é recalculado, e as perguntas aplicadas sobrevivem a trocas de aba, idioma, "
              "chunker, parâmetros e modelo.",
    },
    "app.edit_questions": {
        "en": "Edit, add, upload or download the questions ({n} in use)",
        "pt": "Editar, adicionar, enviar ou baixar as perguntas ({n} em uso)",
    },
    "app.no_questions": {
        "en": "Add a question to the table above to see its scores.",
        "pt": "Adicione uma pergunta à tabela acima para ver seus scores.",
    },
    "app.expected": {"en": "expected answer: {answer}", "pt": "resposta esperada: {answer}"},
    "app.unanswerable": {
        "en": "the document does not answer this question",
        "pt": "o documento não responde esta pergunta",
    },
    "app.prompt": {"en": "Prompt sent to the language model", "pt": "Prompt enviado ao modelo de linguagem"},
    "app.no_llm_call": {
        "en": "no LLM call: retrieval refused, the app answers \"not found\".",
        "pt": "sem chamada ao LLM: a busca recusou, a aplicação responde \"não encontrei\".",
    },
    "app.calibration_needs": {
        "en": "Calibration needs at least one answerable and one unanswerable question.",
        "pt": "A calibração precisa de ao menos uma pergunta com resposta e uma sem resposta.",
    },
    "app.suggested_floor": {"en": "suggested floor", "pt": "piso sugerido"},
    "app.margin": {"en": "margin between the groups", "pt": "margem entre os grupos"},
    "app.cost_refusal": {"en": "cost of a false refusal", "pt": "custo de uma recusa indevida"},
    "app.cost_answer": {"en": "cost of a false answer", "pt": "custo de uma resposta indevida"},
    "app.no_flips": {
        "en": "Every question has the same outcome in A and B.",
        "pt": "Todas as perguntas têm o mesmo resultado em A e B.",
    },
    "app.flips": {
        "en": "{n} questions change outcome between A and B",
        "pt": "{n} perguntas mudam de resultado entre A e B",
    },
    "app.flips.one": {
        "en": "{n} question changes outcome between A and B",
        "pt": "{n} pergunta muda de resultado entre A e B",
    },
    "app.sweep": {"en": "Sweep", "pt": "Varredura"},
    "app.sweep_metric": {"en": "Metric", "pt": "Métrica"},
    "app.run_sweep": {"en": "Run sweep ({n} configurations)", "pt": "Rodar varredura ({n} configurações)"},
    "app.sweep_count": {"en": "configuration {done} of {total}", "pt": "configuração {done} de {total}"},
    "app.sweep_hint": {
        "en": "Tries chunker sizes and overlaps on this document and these questions.",
        "pt": "Testa tamanhos e sobreposições de chunker neste documento e nestas perguntas.",
    },
    "app.sweep_stale": {
        "en": "The document, model, questions, top_k or floor changed since this sweep; run it again.",
        "pt": "Documento, modelo, perguntas, top_k ou piso mudaram desde esta varredura; rode de novo.",
    },
    "app.sweep_best": {
        "en": "Best for {metric}: **{config}** ({value})",
        "pt": "Melhor em {metric}: **{config}** ({value})",
    },
    "app.load_best": {"en": "Load best into A", "pt": "Carregar a melhor em A"},
    "app.why_intro": {
        "en": "Pick a labelled question (or type another) and the configuration it went wrong "
              "in; the diagnosis names the nearest setting that fixes it.",
        "pt": "Escolha uma pergunta rotulada (ou digite outra) e a configuração em que ela deu "
              "errado; o diagnóstico aponta o ajuste mais próximo que a corrige.",
    },
    "app.why_config": {"en": "Configuration", "pt": "Configuração"},
    "app.why_run": {"en": "Diagnose", "pt": "Diagnosticar"},
    "app.why_empty": {"en": "Type the question first.", "pt": "Digite a pergunta primeiro."},
    "app.why_bad_config": {
        "en": "That configuration has an error; fix its settings first.",
        "pt": "Essa configuração tem um erro; corrija os parâmetros antes.",
    },
    "app.load_fix": {"en": "Load this fix into A", "pt": "Carregar esta correção em A"},
    "app.load_fix_b": {"en": "Load this fix into B", "pt": "Carregar esta correção em B"},
    "app.why_pick": {"en": "Question", "pt": "Pergunta"},
    "app.why_free": {"en": "Another question (type it)", "pt": "Outra pergunta (digite)"},
    "app.why_result_for": {
        "en": "Diagnosis of “{question}” under configuration {side}:",
        "pt": "Diagnóstico de “{question}” na configuração {side}:",
    },
    # --- the question table (typing) -----------------------------------------------------
    "app.apply_questions": {"en": "Apply questions", "pt": "Aplicar perguntas"},
    "app.questions_not_applied": {
        "en": "The table holds edits not applied yet: the scores still use the previous "
              "questions. Click “Apply questions” to use them.",
        "pt": "A tabela tem edições ainda não aplicadas: as pontuações ainda usam as "
              "perguntas anteriores. Clique em “Aplicar perguntas” para usá-las.",
    },
    "app.clear_questions": {"en": "Clear questions", "pt": "Limpar perguntas"},
    "app.clear_questions_short": {"en": "Clear questions", "pt": "Limpar perguntas"},
    "app.keep_questions": {"en": "Keep questions", "pt": "Manter perguntas"},
    "app.questions_other_document": {
        "en": "The document changed: the {n} questions were written for the previous one. "
              "Keep them for this document, or clear them?",
        "pt": "O documento mudou: as {n} perguntas foram escritas para o anterior. "
              "Mantê-las para este documento, ou limpá-las?",
    },
    "app.questions_other_document.one": {
        "en": "The document changed: its {n} question was written for the previous one. "
              "Keep it for this document, or clear it?",
        "pt": "O documento mudou: a {n} pergunta foi escrita para o anterior. "
              "Mantê-la para este documento, ou limpá-la?",
    },
    "app.download_questions": {"en": "Download questions (CSV)", "pt": "Baixar perguntas (CSV)"},
    "app.upload_questions": {"en": "Upload questions (CSV)", "pt": "Enviar perguntas (CSV)"},
    "app.upload_questions_help": {
        "en": "The command line's format: a header question,answer,answerable and one "
              "question per line; it replaces the table.",
        "pt": "O formato da linha de comando: o cabeçalho question,answer,answerable e uma "
              "pergunta por linha; substitui a tabela.",
    },
    "app.left_out_files": {
        "en": "{n} questions expect excerpts of files that are not in this document ({files}): "
              "they are left out of the evaluation and stay in the table.",
        "pt": "{n} perguntas esperam trechos de arquivos que não estão neste documento "
              "({files}): ficam fora da avaliação e continuam na tabela.",
    },
    "app.left_out_files.one": {
        "en": "{n} question expects an excerpt of a file that is not in this document "
              "({files}): it is left out of the evaluation and stays in the table.",
        "pt": "{n} pergunta espera um trecho de um arquivo que não está neste documento "
              "({files}): fica fora da avaliação e continua na tabela.",
    },
    "app.left_out_files_corpus": {
        "en": "{n} questions expect excerpts of files that are not in the corpus ({files}): "
              "they are left out of the evaluation and stay in the table.",
        "pt": "{n} perguntas esperam trechos de arquivos que não estão no corpus ({files}): "
              "ficam fora da avaliação e continuam na tabela.",
    },
    "app.left_out_files_corpus.one": {
        "en": "{n} question expects an excerpt of a file that is not in the corpus ({files}): "
              "it is left out of the evaluation and stays in the table.",
        "pt": "{n} pergunta espera um trecho de um arquivo que não está no corpus ({files}): "
              "fica fora da avaliação e continua na tabela.",
    },
    "app.more_files": {"en": "{names} and {n} more", "pt": "{names} e mais {n}"},
    "app.questions_uploaded": {
        "en": "{n} questions loaded from the file.",
        "pt": "{n} perguntas carregadas do arquivo.",
    },
    "app.questions_uploaded.one": {
        "en": "{n} question loaded from the file.",
        "pt": "{n} pergunta carregada do arquivo.",
    },
    "app.question_count": {
        "en": "{n} questions in use: {answerable} answerable, {unanswerable} not.",
        "pt": "{n} perguntas em uso: {answerable} com resposta, {unanswerable} sem.",
    },
    "app.question_count.one": {
        "en": "{n} question in use: {answerable} answerable, {unanswerable} not.",
        "pt": "{n} pergunta em uso: {answerable} com resposta, {unanswerable} sem.",
    },
    "app.row_without_question": {
        "en": "Row {row} has an expected answer but no question, so it is not used.",
        "pt": "A linha {row} tem resposta esperada mas nenhuma pergunta, então não é usada.",
    },
    "app.duplicate_question": {
        "en": "Rows {rows} ask the same question (“{question}”).",
        "pt": "As linhas {rows} fazem a mesma pergunta (“{question}”).",
    },
    "app.need_document": {
        "en": "Give a document (sidebar) to see this.", "pt": "Informe um documento (barra lateral) para ver isto.",
    },
    "chart.sweep_row": {"en": "{chunker}, overlap {overlap}", "pt": "{chunker}, sobreposição {overlap}"},
    "chart.sweep_size": {"en": "size / max_chars", "pt": "tamanho / máx_caracteres"},
    "chart.best_score": {"en": "best score of the question", "pt": "melhor score da pergunta"},
    "chart.suggested_floor": {"en": "suggested floor {floor}", "pt": "piso sugerido {floor}"},
    "chart.false_refusals": {"en": "false refusals", "pt": "recusas indevidas"},
    "chart.false_answers": {"en": "false answers", "pt": "respostas indevidas"},
    "chart.cost": {"en": "weighted cost", "pt": "custo ponderado"},
    "chart.floor_axis": {"en": "floor", "pt": "piso"},
    "chart.errors": {"en": "questions", "pt": "perguntas"},
    "chart.sweep_missing": {
        "en": "{n} blank cells: the sweep does not try that row's chunker at that size.",
        "pt": "{n} células vazias: a varredura não testa o chunker dessa linha nesse tamanho.",
    },
    "chart.sweep_undefined": {
        "en": "{n} blank cells: {metric} is undefined there (nothing to count, e.g. no refusal).",
        "pt": "{n} células vazias: {metric} não é definido ali (nada a contar, p. ex. nenhuma recusa).",
    },
    "chart.sweep_ties": {
        "en": "{n} configurations tie for best; the tie goes to the better MRR, then hit@k, "
        "refusal recall, refusal precision, then the earlier cell of the grid.",
        "pt": "{n} configurações empatam como melhores; o desempate vai para o melhor MRR, depois "
        "hit@k, revocação e precisão das recusas, depois a célula anterior da grade.",
    },
    "chart.answer_outline": {
        "en": "green outline: the chunk holds the expected answer",
        "pt": "contorno verde: o chunk contém a resposta esperada",
    },
    "chart.offset": {"en": "character offset", "pt": "posição (caractere)"},
    "chart.similarity": {
        "en": "similarity to next sentence",
        "pt": "similaridade com a próxima frase",
    },
    "chart.threshold": {"en": "breakpoint {value}", "pt": "ponto de corte {value}"},
    # --- merged from issues 20-23 (evaluation, index database mode, peers, map) ---
    'walk.map.title': {"en": '4 · Where the question lands', "pt": '4 · Onde a pergunta cai'},
    'walk.map.body': {"en": "Each point is a chunk, projected from the model's space onto the screen: fixed-120 ●, sentence ■; ◆ Q1 is the refund question. Under fixed chunks, #{winner} sits at cosine distance {map_winner_distance} from it, nearer than #{map_holder}, which holds the deadline ({map_holder_distance}): the cut left the deadline in a chunk farther from the question. Among sentence chunks the nearest, #{map_sentence_holder} ({map_sentence_holder_distance}), holds subject and deadline together.", "pt": 'Cada ponto é um chunk, projetado do espaço do modelo para a tela: fixo-120 ●, por frase ■; ◆ Q1 é a pergunta do reembolso. Nos chunks fixos, o #{winner} fica a uma distância de cosseno de {map_winner_distance} dela, mais perto que o #{map_holder}, que traz o prazo ({map_holder_distance}): o corte deixou o prazo num chunk mais longe da pergunta. Entre os chunks por frase o mais perto, #{map_sentence_holder} ({map_sentence_holder_distance}), traz assunto e prazo juntos.'},
    'walk.map.body_found': {"en": "Each point is a chunk, projected from the model's space onto the screen: fixed-120 ●, sentence ■; ◆ Q1 is the refund question. With this model the nearest fixed chunk, #{winner} (cosine distance {map_winner_distance}), already holds the deadline: here the cut does not push the answer away. Among sentence chunks the nearest, #{sentence_winner}, is at {map_sentence_winner_distance}.", "pt": 'Cada ponto é um chunk, projetado do espaço do modelo para a tela: fixo-120 ●, por frase ■; ◆ Q1 é a pergunta do reembolso. Com este modelo o chunk fixo mais perto, #{winner} (distância de cosseno {map_winner_distance}), já traz o prazo: aqui o corte não afasta a resposta. Entre os chunks por frase o mais perto, #{sentence_winner}, está a {map_sentence_winner_distance}.'},
    'walk.map.body_missed': {"en": "Each point is a chunk, projected from the model's space onto the screen: fixed-120 ●, sentence ■; ◆ Q1 is the refund question. Under fixed chunks, #{winner} sits at cosine distance {map_winner_distance}, nearer than #{map_holder}, which holds the deadline ({map_holder_distance}). With this model sentence chunks do not fix it: the nearest is {map_sentence_winner_distance} away, while #{map_sentence_holder}, holding the deadline, is at {map_sentence_holder_distance}.", "pt": 'Cada ponto é um chunk, projetado do espaço do modelo para a tela: fixo-120 ●, por frase ■; ◆ Q1 é a pergunta do reembolso. Nos chunks fixos, o #{winner} fica a uma distância de cosseno de {map_winner_distance}, mais perto que o #{map_holder}, que traz o prazo ({map_holder_distance}). Com este modelo os chunks por frase não resolvem: o mais perto está a {map_sentence_winner_distance}, e o #{map_sentence_holder}, que traz o prazo, a {map_sentence_holder_distance}.'},
    'chart.sweep_scale': {"en": 'Colours run from 0 to {top} (every value is under it), so small differences show; compare two sweeps by the numbers in the cells.', "pt": 'As cores vão de 0 a {top} (todo valor fica abaixo), para que pequenas diferenças apareçam; compare duas varreduras pelos números nas células.'},
    'tab.map': {"en": 'Map', "pt": 'Mapa'},
    'map.colour': {"en": 'Colour chunks by', "pt": 'Colorir chunks por'},
    'map.colour_config': {"en": 'configuration', "pt": 'configuração'},
    'map.colour_file': {"en": 'file', "pt": 'arquivo'},
    'map.colour_diagnosis': {"en": "their question's diagnosis", "pt": 'diagnóstico da sua pergunta'},
    'map.method': {"en": 'Projection', "pt": 'Projeção'},
    'map.method_pca': {"en": 'PCA (instant)', "pt": 'PCA (instantânea)'},
    'map.method_umap': {"en": 'UMAP (clusters)', "pt": 'UMAP (agrupamentos)'},
    'map.lines': {"en": 'Lines of', "pt": 'Linhas de'},
    'map.lines_all': {"en": 'every question', "pt": 'todas as perguntas'},
    'map.umap_missing': {"en": 'UMAP needs umap-learn ({hint}); the picture is PCA.', "pt": 'O UMAP precisa do umap-learn ({hint}); a imagem é PCA.'},
    'map.umap_running': {"en": 'UMAP is placing {n} chunks ({done}); the PCA picture stays until it is ready.', "pt": 'O UMAP está posicionando {n} chunks ({done}); a imagem PCA fica até ele terminar.'},
    'map.umap_failed': {"en": 'UMAP failed ({error}); the picture is PCA.', "pt": 'O UMAP falhou ({error}); a imagem é PCA.'},
    'map.few_chunks': {"en": 'Under {n} chunks UMAP has no neighbourhood to learn: the picture is PCA.', "pt": 'Com menos de {n} chunks o UMAP não tem vizinhança para aprender: a imagem é PCA.'},
    'map.sampled': {"en": "{shown} of {total} chunks drawn: a sample that keeps every chunk holding an expected answer and every question's {keep} best.", "pt": '{shown} de {total} chunks desenhados: uma amostra que mantém todo chunk com uma resposta esperada e os {keep} melhores de cada pergunta.'},
    'map.own_models': {"en": 'A and B use different models, so their vectors live in different spaces: one map each.', "pt": 'A e B usam modelos diferentes, então seus vetores vivem em espaços diferentes: um mapa para cada.'},
    'map.not_retrieved': {"en": 'not retrieved', "pt": 'não recuperado'},
    'map.pasted': {"en": '(pasted text)', "pt": '(texto colado)'},
    'map.chunk': {"en": 'chunk', "pt": 'chunk'},
    'map.file': {"en": 'file', "pt": 'arquivo'},
    'map.chars': {"en": 'characters', "pt": 'caracteres'},
    'map.text': {"en": 'text', "pt": 'texto'},
    'map.question': {"en": 'question', "pt": 'pergunta'},
    'map.picked_chunk': {"en": 'Picked: chunk {chunk} of {side}{file}, {chars} characters: “{head}”', "pt": 'Escolhido: chunk {chunk} de {side}{file}, {chars} caracteres: “{head}”'},
    'map.picked_question': {"en": 'Picked: question {n}, “{question}”: its lines are drawn, and the Why did this fail? tab opens on it.', "pt": 'Escolhida: pergunta {n}, “{question}”: suas linhas estão desenhadas, e a aba Por que falhou? abre nela.'},
}

register(APP)
