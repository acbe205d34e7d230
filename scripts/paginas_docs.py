"""MkDocs hook (``hooks:`` in mkdocs.yml): the documentation pages that the code already knows
are generated at build time, from the code itself, so they cannot drift from it.

- ``regimes/``: one page per regime, from :func:`multas.nucleo.catalogo.descrever_regimes` (the source
  of ``multas regimes``, ``GET /api/v1/regimes`` and the OpenAPI document): fields, types,
  readings and outputs; the input errors are the engine's own messages, obtained by running
  it on broken copies of the regime's example; the example's memória is computed now.
- ``legislacao/``: the dated parameters (:func:`multas.nucleo.catalogo.descrever_legislacao`) and one
  page per shipped legal text (``multas/nucleo/legislacao/textos``), reproduced verbatim.
- Markers in the hand-written pages, ``<!-- gerado:NOME -->``, are replaced by generated
  tables: the API's routes (from the app's OpenAPI document), each command's options (from
  its Click definition) and every ``MULTAS_*`` setting (from :mod:`multas.servicos.configuracao`).

Anything that no longer fits (a text file without a description here, a regime without an
example, a broken input the engine accepts, an unknown marker) stops the build, and
``make test`` builds the site with ``--strict``.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable, Iterable
from copy import deepcopy
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

RAIZ = Path(__file__).resolve().parents[1]

#: pt-BR description of each shipped legal text (the files' own notes may be in English)
DESCRICOES_TEXTOS: dict[str, str] = {
    "calendario-federal-2025.txt": "O calendário da administração pública federal de 2025 "
    "(Portaria MGI nº 9.783/2024): feriados, pontos facultativos e dias de expediente parcial.",
    "calendario-federal-2019-2026.txt": "Os calendários federais de 2019 a 2024 e de 2026: a "
    "portaria de cada ano, os atos que a alteraram, cada data com seu tipo e as fontes.",
    "decreto-2953-1999-arts-8-15-17.txt": "Decreto nº 2.953/1999, art. 8º (defesa em 15 dias "
    "da citação) e arts. 15 a 17 (instrução, alegações finais e decisão).",
    "lei-9873-1999-prescricao.txt": "Lei nº 9.873/1999, arts. 1º, 1º-A e 2º: a prescrição da "
    "ação punitiva federal (5 anos), a intercorrente (3 anos), a cobrança e a interrupção.",
    "LEIAME.md": "O que são estes arquivos e como as citações são conferidas.",
    "LEIAME-fontes.md": "O índice das fontes (em inglês): o que cada arquivo contém, qual "
    "decreto é qual e as datas que importam.",
    "decreto-9888-2019-art6-redacao-2025.txt": "Decreto nº 9.888/2019, art. 6º, na redação "
    "dada pelo Decreto nº 12.437/2025: a multa do distribuidor.",
    "decreto-12437-2025-trechos.txt": "Decreto nº 12.437/2025: os novos arts. 4º-A, 6º, 6º-A "
    "(lista de sanções, vedação, redução de 1/12 por mês), 6º-B (produtor) e 9º-A.",
    "decreto-9308-2018-historico.txt": "Decreto nº 9.308/2018, o primeiro regulamento do "
    "RenovaBio (revogado pelo Decreto nº 9.888/2019), com a primeira regra da multa (art. 7º).",
    "decreto-2953-1999-arts-24-28.txt": "Decreto nº 2.953/1999, arts. 24 a 28: a multa da "
    "ANP, a dosimetria, o pagamento em 30 dias, a mora, a dívida ativa e as faixas por infração.",
    "decreto-2953-1999-alteracoes.txt": "Decreto nº 2.953/1999: arts. 21 a 23 e 33, e o que "
    "se sabe das alterações dos arts. 24 a 28.",
    "outros-dispositivos.txt": "Outros dispositivos citados: Decreto nº 2.953/1999, arts. 21 a "
    "23; Lei nº 9.847/1999, art. 4º; Lei nº 13.576/2017, art. 7º, § 2º; Lei nº 9.784/1999, "
    "art. 66 (contagem de prazos).",
    "mp-1205-2023-art6.txt": "Medida Provisória nº 1.205/2023 (Programa MOVER), art. 6º: as "
    "multas compensatórias de eficiência energética.",
    "lei-9847-1999-arts-3-4.txt": "Lei nº 9.847/1999, art. 3º, incisos I a V (as faixas que "
    "prevalecem sobre as do decreto) e art. 4º.",
    "lei-10522-2002-art-37A.txt": "Lei nº 10.522/2002, art. 37-A, e Lei nº 9.430/1996, "
    "art. 61: os acréscimos moratórios dos tributos federais (Selic, 0,33% ao dia até 20%).",
    "lei-10522-2002-art-37B.txt": "Lei nº 10.522/2002, art. 37-B: o parcelamento dos créditos "
    "das autarquias federais (caput e §§ 1º a 9º; do § 10 só as primeiras palavras).",
    "anp-tolerancia-85.txt": "A regra dos 85%/15% do RenovaBio (Lei nº 13.576/2017, art. 7º) "
    "e a redução de 1/12 por mês, como as fontes a mostram.",
    "anp-sancoes-metas-2021.txt": "As páginas da ANP sobre as multas das metas de 2021 e a "
    "comprovação de 2021: as seis autuações anuladas de quem só tinha a falta herdada "
    "(leitura meta_herdada).",
    "renovabio-prazos-historicos.txt": "Os prazos de comprovação das metas de 2019 a 2023 e "
    "os atos que os fixaram.",
    "lei-14902-2024-mover.txt": "Lei nº 14.902/2024 (conversão da MP do MOVER) e Decreto "
    "nº 12.435/2025: o que se sabe; o artigo da multa não está transcrito.",
}

#: a broken value of each contract type, to show the engine's message for it
VALORES_INVALIDOS: dict[str, Any] = {
    "ano": 1800,
    "contagem": "1.5",
    "quantia": "10.001",
    "quantia_positiva": "0",
    "preco": "0",
    "quantidade": "-1",
    "data": "2026-02-30",
    "booleano": "sim",
    "inciso": "9",
    "cotacoes_mensais": {"2025-13": "70"},
    "cotacoes_diarias": [],
    "taxas_mensais": {"2024-13": "1"},
    "datas": ["2025-02-30"],
    "texto": "",
    "opcao": "outra",
    "infracoes": [],
    "agente": "cooperativa",
}

#: inputs that break a rule of one regime (not a field's type): each must be refused
ERROS_DO_REGIME: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "renovabio.distribuidor": [
        ("só um dos faturamentos", {"faturamento_ano_anterior": None}),
        ("dois preços", {"cotacoes_mensais": {"2025-01": "70"}}),
        ("nenhum preço", {"maior_media_mensal": None}),
        ("quitação antes do prazo", {"data_quitacao": "2025-06-30"}),
        ("ano sem prazo conhecido", {"ano_meta": 2019}),
    ],
    "renovabio.produtor": [
        ("ano anterior ao regime", {"ano": 2024}),
    ],
    "renovabio.vedacao": [
        ("data anterior ao regime", {"data_referencia": "2024-06-30"}),
    ],
    "anp.infracao": [
        ("valor fora da faixa", {"inciso": "II", "valor": "1.00"}),
        ("inciso em algarismos arábicos", {"inciso": "11"}),
        ("inciso além do último conhecido da lei", {"inciso": "XX"}),
        ("inciso da lei sem par no decreto, na leitura do decreto",
         {"interpretacao": {"faixa": "decreto"}}),
    ],
    "anp.auto": [
        ("total diferente da soma dos itens",
         {"infracoes": [{"inciso": "I", "valor": "60000"}], "valor": "1.00"}),
        ("item fora da faixa", {"infracoes": [{"inciso": "IV", "valor": "1.00"}]}),
    ],
    "anp.mora": [
        ("Selic de um mês depois da série publicada", {"interpretacao": {"encargos": "lei-10522"},
                                                       "data_ciencia": "2025-05-02",
                                                       "data_pagamento": "2025-09-15"}),
        ("Selic vazia", {"taxas_selic": {}}),
        ("lei-10522 antes do art. 37-A", {"interpretacao": {"encargos": "lei-10522"},
                                          "data_ciencia": "2008-10-01",
                                          "data_pagamento": "2009-03-01"}),
    ],
    "mover.eficiencia": [
        ("meio par", {"consumo_mj_km": None}),
        ("nenhum par", {"meta_mj_km": None, "consumo_mj_km": None,
                        "meta_gco2_km": None, "emissao_gco2_km": None}),
        ("nenhum veículo", {"veiculos": 0}),
    ],
}  # fmt: skip


# ---------------------------------------------------------------- small Markdown helpers


def celula(valor: object) -> str:
    """A table cell: no line breaks, pipes escaped."""
    texto = valor if isinstance(valor, str) else json.dumps(valor, ensure_ascii=False)
    return " ".join(texto.split()).replace("|", "\\|")


def fonte(dados: dict[str, str | None]) -> str:
    """A source as a link to its public page, when it has one."""
    titulo = str(dados["titulo"])
    return f"[{titulo}]({dados['href']})" if dados["href"] else titulo


def tabela(cabecalho: Iterable[str], linhas: Iterable[Iterable[object]]) -> str:
    colunas = list(cabecalho)
    partes = [
        "| " + " | ".join(colunas) + " |",
        "|" + "---|" * len(colunas),
    ]
    partes += ["| " + " | ".join(celula(c) for c in linha) + " |" for linha in linhas]
    return "\n".join(partes)


def bloco_literal(texto: str, linguagem: str = "text") -> str:
    """A fenced block that shows ``texto`` exactly, whatever backticks it holds."""
    maior = max((len(m) for m in re.findall(r"`+", texto)), default=0)
    cerca = "`" * max(3, maior + 1)
    return f"{cerca}{linguagem}\n{texto.rstrip()}\n{cerca}"


def codigo(texto: str) -> str:
    """Inline code, whatever backticks it holds."""
    cerca = "``" if "`" in texto else "`"
    return f"{cerca}{texto}{cerca}"


def _modulo(caminho: Path, nome: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(nome, caminho)
    assert spec and spec.loader
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    return modulo


# ---------------------------------------------------------------- the regimes


def pagina_regime_uri(nome: str) -> str:
    return f"regimes/{nome}.md"


def _exemplos_readme() -> dict[str, tuple[str, str]]:
    """regime → (file in exemplos/, its explanation), as the README shows them."""
    script = _modulo(RAIZ / "scripts" / "exemplos_readme.py", "exemplos_readme")
    exemplos: dict[str, tuple[str, str]] = {}
    for arquivo, explicacao in script.EXEMPLOS:
        dados = json.loads((RAIZ / "exemplos" / arquivo).read_text(encoding="utf-8"))
        exemplos[dados["regime"]] = (arquivo, explicacao)
    return exemplos


def _erro(caso: dict[str, Any]) -> tuple[str | None, str] | None:
    """The engine's (campo, mensagem) for ``caso``, or None if it computes."""
    from multas import EntradaInvalida, calcular

    try:
        calcular(caso)
    except EntradaInvalida as erro:
        return erro.campo, erro.mensagem
    return None


def _alterado(base: dict[str, Any], mudancas: dict[str, Any]) -> dict[str, Any]:
    caso = deepcopy(base)
    for chave, valor in mudancas.items():
        if valor is None:
            caso.pop(chave, None)
        else:
            caso[chave] = valor
    return caso


def _descrever_mudanca(base: dict[str, Any], mudancas: dict[str, Any]) -> str:
    partes = []
    for chave, valor in mudancas.items():
        if valor is None and chave not in base:
            continue  # nothing removed
        if valor is None:
            partes.append(f"sem {codigo(chave)}")
        else:
            partes.append(codigo(f"{chave}: {json.dumps(valor, ensure_ascii=False)}"))
    return ", ".join(partes)


def erros_do_regime(regime: dict[str, Any], base: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(what was sent, campo, mensagem) for broken copies of the regime's example: the engine's
    own messages. A copy that the engine accepts stops the build."""
    tentativas: list[tuple[str, dict[str, Any]]] = []
    precos = {"maior_media_mensal", "cotacoes_mensais", "cotacoes_diarias"}
    for campo in regime["campos"]:
        nome = campo["nome"]
        if campo["obrigatorio"]:
            tentativas.append(("", {nome: None}))
        if campo["tipo"] not in VALORES_INVALIDOS:
            raise RuntimeError(
                f"docs: dê um valor inválido do tipo {campo['tipo']} em VALORES_INVALIDOS "
                "(scripts/paginas_docs.py)"
            )
        mudanca: dict[str, Any] = {nome: VALORES_INVALIDOS[campo["tipo"]]}
        if nome in precos:  # alone: exactly one price is given
            mudanca.update({p: None for p in sorted(precos - {nome})})
        tentativas.append(("", mudanca))
    tentativas.append(("campo que o regime não tem", {"campo_extra": 1}))
    for chave in regime["interpretacao"]:
        tentativas.append(("", {"interpretacao": {chave: "outra"}}))
    tentativas.append(("", {"interpretacao": {"leitura_inexistente": "x"}}))
    tentativas += ERROS_DO_REGIME.get(regime["regime"], [])

    linhas = []
    for rotulo, mudancas in tentativas:
        resposta = _erro(_alterado(base, mudancas))
        if resposta is None:
            raise RuntimeError(
                f"docs: o motor aceitou um caso que a documentação dá como erro "
                f"({regime['regime']}: {mudancas}); corrija scripts/paginas_docs.py"
            )
        campo, mensagem = resposta
        enviado = _descrever_mudanca(base, mudancas)
        linhas.append((f"{rotulo}: {enviado}" if rotulo else enviado, campo or "—", mensagem))
    return linhas


def pagina_regime(regime: dict[str, Any], exemplo: tuple[str, str] | None) -> str:
    from multas import calcular
    from multas.nucleo.contrato import TIPOS_DESCRICAO, TIPOS_PLANOS
    from multas.nucleo.json_exato import ler_json
    from multas.saidas.memoria import como_markdown

    nome = regime["regime"]
    if exemplo is None:
        raise RuntimeError(
            f"docs: o regime {nome} não tem exemplo em scripts/exemplos_readme.py (EXEMPLOS)"
        )
    arquivo, explicacao = exemplo
    texto_exemplo = (RAIZ / "exemplos" / arquivo).read_text(encoding="utf-8").strip()
    base = ler_json(texto_exemplo)
    partes = [
        f"# `{nome}`",
        f"**{regime['titulo']}.**",
        f"**Fundamento:** {regime['fundamento']}.",
        '!!! info "Página gerada"\n    Gerada do catálogo do próprio código '
        "(`multas.nucleo.catalogo.descrever_regimes()`, o mesmo de `multas regimes`, de "
        "`GET /api/v1/regimes` e do documento OpenAPI) a cada construção do site. "
        "As regras comuns a todos os regimes estão em [Contrato do caso](../contrato.md).",
        "## Entrada",
        f'Um objeto JSON com `"regime": "{nome}"` e os campos abaixo; um campo que não '
        "está aqui é erro. No [lote](../lote.md), cada campo marcado como coluna é uma "
        "coluna da planilha (célula vazia é campo ausente).",
        tabela(
            ["campo", "tipo", "obrigatório", "coluna no lote", "o que é"],
            (
                [
                    codigo(c["nome"]),
                    TIPOS_DESCRICAO[c["tipo"]],
                    "sim" if c["obrigatorio"] else "não",
                    "sim" if c["tipo"] in TIPOS_PLANOS else "não",
                    c["descricao"],
                ]
                for c in regime["campos"]
            ),
        ),
    ]
    partes.append("## Leituras (`interpretacao`)")
    if regime["interpretacao"]:
        partes.append(
            "Objeto opcional `interpretacao`, `{chave: opção}`; sem ele, vale o padrão. "
            "No lote: `--interpretacao chave=opção`. Por que cada padrão foi escolhido: "
            "[Leituras da lei](../leituras.md)."
        )
        partes.append(
            tabela(
                ["chave", "opções", "padrão", "por quê"],
                (
                    [
                        codigo(chave),
                        " | ".join(codigo(o) for o in info["opcoes"]),
                        codigo(info["padrao"]),
                        f"[leitura `{chave}`](../leituras.md#{chave})",
                    ]
                    for chave, info in regime["interpretacao"].items()
                ),
            )
        )
    else:
        partes.append(
            "Este regime não tem leituras a escolher: `interpretacao`, se enviado, deve ser `{}`."
        )
    partes += [
        "## Resultado",
        "Além dos campos de todo resultado (`regime`, `valor`, `moeda`, `fundamento`, "
        "`vigencia`, `passos`, `avisos`, `alternativas`: ver "
        "[Contrato do caso](../contrato.md#resultado)), este regime devolve:",
        "\n".join(f"- `{s}`" for s in regime["saidas"] if s != "valor") or "- nada além deles.",
        "## Erros de entrada",
        "Cada linha é uma cópia do exemplo abaixo com uma alteração, e a resposta que o motor "
        "dá a ela agora (CLI: código de saída 2; API: HTTP 422; lote: a coluna `erro`, como "
        "`campo: mensagem`). Nada é calculado de uma entrada com erro.",
        tabela(
            ["enviado", "campo", "mensagem"],
            ([e, codigo(c) if c != "—" else c, m] for e, c, m in erros_do_regime(regime, base)),
        ),
        "## Exemplo",
        explicacao,
        bloco_literal(f"$ multas calcular exemplos/{arquivo} --formato markdown", "console"),
        bloco_literal(texto_exemplo, "json"),
    ]
    resultado = calcular(base)
    memoria = como_markdown(resultado).split("\n", 2)[2]
    memoria = re.sub(r"^## ", "### ", memoria, flags=re.MULTILINE).strip()
    partes.append(memoria)
    partes.append("O mesmo resultado, no contrato JSON (`--formato json`, a API):")
    from multas.nucleo.json_exato import despejar_json

    partes.append(bloco_literal(despejar_json(resultado), "json"))
    return "\n\n".join(partes) + "\n"


def tabela_regimes() -> str:
    """The regimes, each linking to its page (for the written regimes/index.md)."""
    from multas.nucleo.catalogo import descrever_regimes

    linhas = (
        [f"[`{r['regime']}`]({r['regime']}.md)", r["titulo"], r["fundamento"]]
        for r in descrever_regimes()
    )
    return tabela(["regime", "o que é", "fundamento"], linhas)


# ---------------------------------------------------------------- the legislation


def pasta_textos() -> Path:
    import multas.nucleo.legislacao

    return Path(multas.nucleo.legislacao.__file__).parent / "textos"


def arquivos_textos() -> list[Path]:
    arquivos = sorted(p for p in pasta_textos().iterdir() if p.is_file())
    nomes = {p.name for p in arquivos}
    sem_descricao = nomes - set(DESCRICOES_TEXTOS)
    sobrando = set(DESCRICOES_TEXTOS) - nomes
    if sem_descricao or sobrando:
        raise RuntimeError(
            "docs: descreva em scripts/paginas_docs.py (DESCRICOES_TEXTOS) cada texto legal "
            f"enviado; sem descrição: {sorted(sem_descricao)}; descrito sem arquivo: "
            f"{sorted(sobrando)}"
        )
    # the two indexes first, then the texts by name
    return sorted(arquivos, key=lambda p: (not p.name.startswith("LEIAME"), p.name))


def pagina_texto_uri(arquivo: Path) -> str:
    return f"legislacao/textos/{arquivo.stem}.md"


def _normalizar(texto: str) -> str:
    return " ".join(texto.split())


def _citado_em(texto_citado: str, conteudo_normalizado: str) -> bool:
    trechos = [_normalizar(t) for t in texto_citado.split("[...]") if t.strip()]
    return bool(trechos) and all(t in conteudo_normalizado for t in trechos)


@cache
def legislacao() -> dict[str, Any]:
    from multas.nucleo.catalogo import descrever_legislacao

    dados: dict[str, Any] = descrever_legislacao()
    return dados


def _citacoes_por_arquivo() -> dict[str, list[str]]:
    """file name → the parameters whose quoted ``texto`` is in it."""
    conteudos = {p.name: _normalizar(p.read_text(encoding="utf-8")) for p in arquivos_textos()}
    citacoes: dict[str, list[str]] = {nome: [] for nome in conteudos}
    for parametro in legislacao()["parametros"]:
        for vigencia in parametro["vigencias"]:
            if not vigencia["texto"]:
                continue
            for nome, conteudo in conteudos.items():
                if _citado_em(vigencia["texto"], conteudo) and (
                    parametro["nome"] not in citacoes[nome]
                ):
                    citacoes[nome].append(parametro["nome"])
    return citacoes


def _ancora(nome: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", nome.lower()).strip("-")


def pagina_texto(arquivo: Path, citantes: list[str]) -> str:
    conteudo = arquivo.read_text(encoding="utf-8")
    partes = [
        f"# {arquivo.name}",
        DESCRICOES_TEXTOS[arquivo.name],
        '!!! info "Texto reproduzido na íntegra"\n    O arquivo '
        f"`src/multas/nucleo/legislacao/textos/{arquivo.name}`, instalado com o pacote, copiado aqui "
        "sem nenhuma alteração a cada construção do site. Ele diz o que foi conferido numa "
        "fonte e o que não foi (notas de situação, algumas em inglês): um trecho marcado como "
        "não conferido não é citação.",
    ]
    if citantes:
        links = ", ".join(f"[`{n}`](../parametros.md#{_ancora(n)})" for n in citantes)
        partes.append(f"**Parâmetros que citam este arquivo:** {links}.")
    partes.append(bloco_literal(conteudo, "markdown" if arquivo.suffix == ".md" else "text"))
    return "\n\n".join(partes) + "\n"


def tabela_textos() -> str:
    """The shipped legal texts, each linking to its page (for the written legislacao/index.md)."""
    citacoes = _citacoes_por_arquivo()
    linhas = (
        [
            f"[`{p.name}`](textos/{p.stem}.md)",
            DESCRICOES_TEXTOS[p.name],
            str(len(citacoes[p.name])),
        ]
        for p in arquivos_textos()
    )
    return tabela(["arquivo", "o que contém", "parâmetros que o citam"], linhas)


def _valor_legivel(valor: Any) -> str:
    if valor is None:
        return "—"
    if isinstance(valor, dict):
        return "; ".join(f"{k} = {v}" for k, v in valor.items() if k != "descricao")
    return str(valor)


def pagina_parametros() -> str:
    from datetime import date

    from multas.nucleo.datas import formatar_data

    def data(texto: str | None) -> str:
        return formatar_data(date.fromisoformat(texto)) if texto else "—"

    dados = legislacao()
    partes = [
        "# Parâmetros datados",
        "Gerada de `multas.nucleo.catalogo.descrever_legislacao()` (a mesma fonte de "
        "`multas legislacao` e de `GET /api/v1/legislacao`), que lê "
        "`src/multas/nucleo/legislacao/parametros/*.toml`. Cada vigência diz de quando a quando "
        "vale, o valor, o dispositivo, a redação, a fonte e, quando há, o texto citado "
        f"(versão dos dados: `{dados['versao']}`).",
    ]
    for parametro in dados["parametros"]:
        partes.append(f"## `{parametro['nome']}` {{#{_ancora(parametro['nome'])}}}")
        partes.append(f"{parametro['descricao']} (unidade: {parametro['unidade']}).")
        partes.append(
            tabela(
                ["de", "até", "valor", "dispositivo", "fonte"],
                (
                    [
                        data(v["inicio"]),
                        data(v["fim"]),
                        _valor_legivel(v["valor"]),
                        v["dispositivo"] + (f" ({v['redacao']})" if v["redacao"] else ""),
                        fonte(v["fonte"]),
                    ]
                    for v in parametro["vigencias"]
                ),
            )
        )
        for v in parametro["vigencias"]:
            if v["texto"]:
                citado = "\n".join("> " + linha for linha in v["texto"].strip().splitlines())
                partes.append(f"Texto citado (desde {data(v['inicio'])}):\n\n{citado}")
    if dados["prazos_comprovacao"]:
        partes.append("## Prazos de comprovação das metas {#renovabio-prazo-comprovacao}")
        partes.append(
            tabela(
                ["metas de", "prazo", "dispositivo", "fonte"],
                (
                    [
                        str(p["ano_meta_inicio"])
                        if p["ano_meta_fim"] == p["ano_meta_inicio"]
                        else f"{p['ano_meta_inicio']} em diante",
                        data(p["prazo_exemplo"])
                        + (
                            ""
                            if p["ano_meta_fim"] == p["ano_meta_inicio"]
                            else " (e 31/12 de cada ano)"
                        ),
                        p["dispositivo"],
                        fonte(p["fonte"]),
                    ]
                    for p in dados["prazos_comprovacao"]
                ),
            )
        )
    return "\n\n".join(partes) + "\n"


# ---------------------------------------------------------------- all generated pages


def paginas() -> dict[str, str]:
    """Every generated page: its path under docs/ → its Markdown (the section indexes,
    regimes/index.md and legislacao/index.md, are written pages with markers)."""
    from multas.nucleo.catalogo import descrever_regimes

    regimes = descrever_regimes()
    exemplos = _exemplos_readme()
    resultado: dict[str, str] = {}
    for regime in regimes:
        resultado[pagina_regime_uri(regime["regime"])] = pagina_regime(
            regime, exemplos.get(regime["regime"])
        )
    arquivos = arquivos_textos()
    citacoes = _citacoes_por_arquivo()
    resultado["legislacao/parametros.md"] = pagina_parametros()
    for arquivo in arquivos:
        resultado[pagina_texto_uri(arquivo)] = pagina_texto(arquivo, citacoes[arquivo.name])
    return resultado


def navegacao() -> dict[str, list[dict[str, str]]]:
    """The generated pages that each nav section lists, after its index page."""
    from multas.nucleo.catalogo import descrever_regimes

    return {
        "regimes/index.md": [
            {r["regime"]: pagina_regime_uri(r["regime"])} for r in descrever_regimes()
        ],
        "legislacao/index.md": [{"Parâmetros datados": "legislacao/parametros.md"}]
        + [{p.name: pagina_texto_uri(p)} for p in arquivos_textos()],
    }


# ---------------------------------------------------------------- markers in written pages


def rotas_api() -> str:
    """The API's routes, from the app's own OpenAPI document."""
    from multas.servidor import criar_app

    documento = criar_app("sqlite://").openapi()
    linhas = []
    for caminho, operacoes in documento["paths"].items():
        for metodo, operacao in operacoes.items():
            linhas.append(
                [f"`{metodo.upper()} {caminho}`", operacao.get("summary", ""), _respostas(operacao)]
            )
    return tabela(["método e caminho", "o que faz", "respostas"], linhas)


def _respostas(operacao: dict[str, Any]) -> str:
    return ", ".join(sorted(operacao.get("responses", {})))


def _metavar(parametro: Any, contexto: Any) -> str:
    """The option's value in pt-BR (Click's own names for types are English)."""
    import click

    tipo = parametro.type
    if parametro.metavar:
        return str(parametro.metavar)
    if isinstance(tipo, click.Choice):
        return "[" + "|".join(map(str, tipo.choices)) + "]"
    if isinstance(tipo, click.Path):
        return "ARQUIVO"
    if isinstance(tipo, click.IntRange):
        limites = []
        if tipo.min is not None:
            limites.append(f"≥ {tipo.min}")
        if tipo.max is not None:
            limites.append(f"≤ {tipo.max}")
        return "INTEIRO" + (f" ({', '.join(limites)})" if limites else "")
    nomes = {"integer": "INTEIRO", "float": "NÚMERO", "text": "TEXTO", "boolean": "SIM/NÃO"}
    return nomes.get(tipo.name, str(parametro.make_metavar(contexto)))


def opcoes_do_comando(nome: str) -> str:
    """A command's usage, help and options, from its Click definition."""
    import inspect

    import click

    from multas.principal import cli

    contexto = click.Context(cli, info_name="multas")
    comando = cli.get_command(contexto, nome)
    if comando is None:
        raise RuntimeError(f"docs: comando desconhecido: {nome}")
    sub = click.Context(comando, info_name=nome, parent=contexto)
    uso = " ".join(comando.collect_usage_pieces(sub)).replace("[OPTIONS]", "[OPÇÕES]")
    linhas = []
    for parametro in comando.params:
        if not isinstance(parametro, click.Option) or parametro.hidden:
            continue
        nomes = ", ".join(f"`{o}`" for o in [*parametro.opts, *parametro.secondary_opts])
        if not parametro.is_flag:
            nomes += f" {_metavar(parametro, sub)}"
        if parametro.required:
            nomes += " (obrigatória)"
        padrao = parametro.default
        mostrar = (
            parametro.show_default
            and padrao is not None
            and not parametro.is_flag
            and not callable(padrao)
        )
        linhas.append([nomes, parametro.help or "", f"`{padrao}`" if mostrar else ""])
    ajuda = inspect.cleandoc(comando.help or "")
    return "\n\n".join(
        [
            bloco_literal(f"multas {nome} {uso}", "console"),
            ajuda,
            tabela(["opção", "o que faz", "padrão"], linhas),
        ]
    )


def comandos() -> list[str]:
    from multas.principal import COMANDOS

    return sorted(COMANDOS)


def todos_os_comandos() -> str:
    """One section per command of the console script, whatever commands it has."""
    return "\n\n".join(f"## `multas {nome}`\n\n{opcoes_do_comando(nome)}" for nome in comandos())


def configuracao() -> str:
    """Every MULTAS_* setting, from the class that reads them (:mod:`multas.servicos.configuracao`):
    its variable (and any obsolete name), the option that overrides it, type, default and
    description; then the ones planned, not read yet."""
    from multas.servicos.configuracao import OBSOLETAS, PREVISTAS, Configuracao

    linhas = []
    for v in Configuracao.variaveis():
        nome = codigo(v.nome)
        antigas = [antiga for antiga, nova in OBSOLETAS.items() if nova == v.nome]
        if antigas:
            nome += " (nome antigo, ainda aceito: " + ", ".join(map(codigo, antigas)) + ")"
        opcao = codigo(v.opcao) if v.opcao else ""
        linhas.append([nome, opcao, v.tipo, v.padrao, v.descricao])
    partes = [
        tabela(["variável", "opção de `multas servir`", "valor", "padrão", "o que é"], linhas)
    ]
    if PREVISTAS:
        partes += [
            "Previstas, ainda não lidas (o nome pode mudar até lá):",
            "\n".join(f"- {codigo(nome)}: {descricao}." for nome, descricao in PREVISTAS),
        ]
    return "\n\n".join(partes)


def permissoes() -> str:
    """Who may do what: every route of the permission table (:mod:`multas.servidor.permissoes`)
    with its least role, and the administration's actions."""
    from multas.servidor.permissoes import ACOES, PERMISSOES, PODE

    papel = {None: "público", "leitura": "leitura", "analista": "analista", "admin": "admin"}
    rotas = [
        [codigo(metodo), codigo(caminho), papel[minimo]]
        for (metodo, caminho), minimo in sorted(
            PERMISSOES.items(), key=lambda item: (item[0][1], item[0][0])
        )
    ]
    acoes = [[codigo(f"multas {acao}"), minimo] for acao, minimo in sorted(ACOES.items())]
    papeis = "\n".join(f"- `{nome}`: {descricao}." for nome, descricao in PODE.items())
    return "\n\n".join(
        [
            papeis,
            tabela(["método", "rota", "papel mínimo"], rotas),
            "As ações de administração, feitas na máquina do servidor (com as credenciais do "
            "próprio banco):",
            tabela(["comando", "papel"], acoes),
        ]
    )


MARCADORES: dict[str, Callable[[str], str]] = {
    "regimes": lambda _: tabela_regimes(),
    "textos_legais": lambda _: tabela_textos(),
    "rotas_api": lambda _: rotas_api(),
    "opcoes": opcoes_do_comando,
    "comandos": lambda _: todos_os_comandos(),
    "configuracao": lambda _: configuracao(),
    "permissoes": lambda _: permissoes(),
}
_MARCADOR = re.compile(r"<!--\s*gerado:([a-z_]+)(?::([a-z_]+))?\s*-->")


def substituir_marcadores(markdown: str) -> str:
    def trocar(casamento: re.Match[str]) -> str:
        nome, argumento = casamento.group(1), casamento.group(2) or ""
        if nome not in MARCADORES:
            raise RuntimeError(f"docs: marcador desconhecido: {casamento.group(0)}")
        return MARCADORES[nome](argumento)

    return _MARCADOR.sub(trocar, markdown)


# ---------------------------------------------------------------- MkDocs events


def on_config(config: Any) -> Any:
    """Each nav section whose first entry is a generated index gets the generated pages."""
    secoes = navegacao()

    def expandir(itens: list[Any]) -> list[Any]:
        novos = []
        for item in itens:
            if isinstance(item, dict):
                item = {
                    titulo: expandir(valor) if isinstance(valor, list) else valor
                    for titulo, valor in item.items()
                }
            novos.append(item)
            if isinstance(item, str) and item in secoes:
                novos += secoes[item]
        return novos

    config["nav"] = expandir(config["nav"])
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for uri, conteudo in paginas().items():
        if files.get_file_from_path(uri) is not None:
            raise RuntimeError(f"docs: {uri} é gerado; apague o arquivo escrito em docs/")
        files.append(File.generated(config, uri, content=conteudo))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return substituir_marcadores(markdown)
