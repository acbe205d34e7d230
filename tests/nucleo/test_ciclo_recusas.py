"""Every rule a § 6 processo can break gives its exact pt-BR message and names the field
(``ler_processo``). The messages are what a user reads; mutation testing pins each word."""

from __future__ import annotations

from typing import Any

import pytest

from multas.nucleo.ciclo.prazos import CAMPOS_PROCESSO, ler_processo
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import ler_textos
from tests.utils.legislacao import PARAMETROS


def ev(evento: str, data: str) -> dict[str, str]:
    return {"evento": evento, "data": data}


ANP = [ev("infracao", "2024-01-10"), ev("auto_infracao", "2024-02-01")]
TIPOS = "anp, renovabio.lista, renovabio.balanco"

CASOS: list[tuple[str, Any, str | None, str]] = [
    ("não objeto", [], None, "o processo deve ser um objeto JSON"),
    (
        "campo desconhecido",
        {"tipo": "anp", "eventos": ANP, "cliente": "x"},
        "cliente",
        f"campo desconhecido para um processo (campos: {', '.join(CAMPOS_PROCESSO)})",
    ),
    ("sem tipo", {"eventos": ANP}, "tipo", "campo obrigatório"),
    (
        "tipo desconhecido",
        {"tipo": "ANP", "eventos": ANP},
        "tipo",
        f"tipo de processo desconhecido: 'ANP' (tipos: {TIPOS})",
    ),
    (
        "tipo não texto",
        {"tipo": 3, "eventos": ANP},
        "tipo",
        f"tipo de processo desconhecido: 3 (tipos: {TIPOS})",
    ),
    (
        "id não texto",
        {"tipo": "anp", "eventos": ANP, "id": 1.5},
        "id",
        "deve ser um texto ou um número inteiro, não 1.5",
    ),
    (
        "id lógico",
        {"tipo": "anp", "eventos": ANP, "id": True},
        "id",
        "deve ser um texto ou um número inteiro, não True",
    ),
    (
        "cnpj número",
        {"tipo": "anp", "eventos": ANP, "cnpj": 123},
        "cnpj",
        "deve ser um texto, não 123",
    ),
    (
        "nome lista",
        {"tipo": "anp", "eventos": ANP, "nome": ["a"]},
        "nome",
        "deve ser um texto, não ['a']",
    ),
    (
        "interpretacao não objeto",
        {"tipo": "anp", "eventos": ANP, "interpretacao": "feriados"},
        "interpretacao",
        'deve ser um objeto, ex.: {"calendario": "feriados"}',
    ),
    (
        "leitura desconhecida",
        {"tipo": "anp", "eventos": ANP, "interpretacao": {"faixa": "x"}},
        "interpretacao.faixa",
        "leitura desconhecida para um processo (aceita: calendario, prazo_alegacoes, atos_instrucao, "
        "interrupcao_penal, encargos, imputacao, desconto)",
    ),
    (
        "calendário inválido",
        {"tipo": "anp", "eventos": ANP, "interpretacao": {"calendario": "util"}},
        "interpretacao.calendario",
        "opção inválida: 'util' (opções: expediente, feriados)",
    ),
    (
        "valor_multa fora do anp",
        {
            "tipo": "renovabio.balanco",
            "eventos": [ev("inclusao_lista", "2025-05-02")],
            "valor_multa": "10",
        },
        "valor_multa",
        "só um processo 'anp' tem valor_multa",
    ),
    (
        "sem eventos",
        {"tipo": "anp"},
        "eventos",
        "campo obrigatório: a lista de eventos do processo",
    ),
    (
        "eventos não lista",
        {"tipo": "anp", "eventos": {"a": 1}},
        "eventos",
        'deve ser uma lista de eventos [{"evento": ..., "data": "AAAA-MM-DD"}]',
    ),
    (
        "eventos vazios",
        {"tipo": "renovabio.lista", "eventos": []},
        "eventos",
        "a lista de eventos está vazia: um processo 'renovabio.lista' começa com o evento "
        "“Fim do prazo de comprovação da meta (art. 4º-A), não cumprido” (fim_prazo_meta)",
    ),
    (
        "primeiro evento errado",
        {"tipo": "anp", "eventos": [ev("auto_infracao", "2024-02-01")]},
        "eventos[0].evento",
        "o primeiro evento de um processo 'anp' deve ser “Infração” (infracao), não "
        "“Ciência do auto de infração (citação)” (auto_infracao)",
    ),
    (
        "suspensão primeiro",
        {"tipo": "anp", "eventos": [ev("suspensao_judicial", "2024-02-01")]},
        "eventos[0].evento",
        "o evento “Suspensão do processo por ordem judicial” (suspensao_judicial) não pode ser o primeiro do processo",
    ),
    (
        "duas suspensões",
        {
            "tipo": "anp",
            "eventos": [
                *ANP,
                ev("suspensao_judicial", "2024-03-01"),
                ev("suspensao_judicial", "2024-03-02"),
            ],
        },
        "eventos[3].evento",
        "já há uma suspensão judicial em vigor: registre “Fim da suspensão judicial” (fim_suspensao_judicial) antes de "
        "outra “Suspensão do processo por ordem judicial” (suspensao_judicial)",
    ),
    (
        "fim sem suspensão",
        {"tipo": "anp", "eventos": [*ANP, ev("fim_suspensao_judicial", "2024-03-01")]},
        "eventos[2].evento",
        "não há suspensão judicial em vigor para terminar: “Fim da suspensão judicial” (fim_suspensao_judicial) vem "
        "depois de “Suspensão do processo por ordem judicial” (suspensao_judicial)",
    ),
    (
        "fim depois de fim",
        {
            "tipo": "anp",
            "eventos": [
                *ANP,
                ev("suspensao_judicial", "2024-03-01"),
                ev("fim_suspensao_judicial", "2024-03-02"),
                ev("fim_suspensao_judicial", "2024-03-03"),
            ],
        },
        "eventos[4].evento",
        "não há suspensão judicial em vigor para terminar: “Fim da suspensão judicial” (fim_suspensao_judicial) vem "
        "depois de “Suspensão do processo por ordem judicial” (suspensao_judicial)",
    ),
    (
        "data fora de ordem",
        {
            "tipo": "anp",
            "eventos": [ev("infracao", "2024-01-10"), ev("auto_infracao", "2024-01-09")],
        },
        "eventos[1].data",
        "data fora de ordem: o evento “Ciência do auto de infração (citação)” (auto_infracao) (09/01/2024) é anterior ao evento que o "
        "precede, “Infração” (infracao) (10/01/2024); os eventos vão em ordem de data",
    ),
    (
        "evento repetido",
        {"tipo": "anp", "eventos": [*ANP, ev("auto_infracao", "2024-02-02")]},
        "eventos[2].evento",
        "evento repetido: “Ciência do auto de infração (citação)” (auto_infracao) já consta em eventos[1]; cada evento aparece no "
        "máximo uma vez",
    ),
    (
        "evento desconhecido",
        {"tipo": "renovabio.balanco", "eventos": [ev("infracao", "2025-05-02")]},
        "eventos[0].evento",
        "evento desconhecido para um processo 'renovabio.balanco': 'infracao' (eventos: "
        "inclusao_lista, comprovacao_adequacao, retirada_lista, suspensao_judicial, "
        "fim_suspensao_judicial)",
    ),
    (
        "evento sem data",
        {"tipo": "anp", "eventos": [{"evento": "infracao"}]},
        "eventos[0].data",
        "campo obrigatório: a data do evento “Infração” (infracao)",
    ),
    (
        "evento não objeto",
        {"tipo": "anp", "eventos": ["infracao"]},
        "eventos[0]",
        'cada evento deve ser um objeto {"evento": ..., "data": ...}',
    ),
    (
        "evento com outro campo",
        {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-10", "nota": "x"}]},
        "eventos[0].nota",
        'campo desconhecido: um evento é exatamente {"evento", "data", "documentos"} (\'nota\')',
    ),
    (
        "evento sem nome",
        {"tipo": "anp", "eventos": [{"data": "2024-01-10"}]},
        "eventos[0].evento",
        "campo obrigatório: o nome do evento",
    ),
    (
        "requisito ausente",
        {"tipo": "anp", "eventos": [ev("infracao", "2024-01-10"), ev("defesa", "2024-02-01")]},
        "eventos[1].evento",
        "o evento “Defesa escrita” (defesa) deve vir depois de “Ciência do auto de infração (citação)” (auto_infracao), "
        "que não consta antes dele",
    ),
    (
        "antes de",
        {
            "tipo": "anp",
            "eventos": [
                *ANP,
                ev("ciencia_primeira_instancia", "2024-05-02"),
                ev("defesa", "2024-05-03"),
            ],
        },
        "eventos[3].evento",
        "o evento “Defesa escrita” (defesa) deve vir antes de “Ciência da decisão de primeira instância” (ciencia_primeira_instancia), "
        "que já consta",
    ),
    (
        "um ou outro",
        {
            "tipo": "anp",
            "eventos": [
                *ANP,
                ev("ciencia_primeira_instancia", "2024-05-02"),
                ev("recurso", "2024-05-03"),
                ev("renuncia_recurso", "2024-05-04"),
            ],
        },
        "eventos[4].evento",
        "o evento “Renúncia expressa ao recurso” (renuncia_recurso) não pode ocorrer num processo que já tem “Recurso” (recurso): um "
        "ou outro, no máximo",
    ),
    (
        "depois do terminal",
        {
            "tipo": "anp",
            "eventos": [
                *ANP,
                ev("ciencia_primeira_instancia", "2024-05-02"),
                ev("pagamento", "2024-05-10"),
                ev("recurso", "2024-05-11"),
            ],
        },
        "eventos[4].evento",
        "nenhum evento pode vir depois de “Pagamento” (pagamento) que quitou a multa (eventos[3], "
        "10/05/2024); “Recurso” (recurso) veio depois dele",
    ),
    (
        "antes da lista existir",
        {"tipo": "renovabio.lista", "eventos": [ev("fim_prazo_meta", "2024-12-31")]},
        "eventos[0].data",
        "a data do evento “Fim do prazo de comprovação da meta (art. 4º-A), não cumprido” (fim_prazo_meta) (31/12/2024) é anterior a 01/01/2025, primeira data da "
        "regra: A lista de sanções e a vedação valem para as metas com prazo de comprovação a partir "
        "de 01/01/2025 (Decreto nº 9.888/2019, art. 6º-A (incluído pelo Decreto nº 12.437, de "
        "16/04/2025, DOU 17/04/2025); fonte: Parecer nº 00041/2025/PF-ANP: a nova redação vale "
        "para as infrações posteriores a 31/12/2024; texto do parecer não transcrito: o "
        "dispositivo é citado, nada é citado textualmente)",
    ),
    (
        "quitação no mesmo dia",
        {
            "tipo": "renovabio.lista",
            "eventos": [ev("fim_prazo_meta", "2025-12-31"), ev("quitacao_meta", "2025-12-31")],
        },
        "eventos[1].data",
        "a data do evento “Quitação da meta” (quitacao_meta) (31/12/2025) deve ser posterior à do evento "
        "“Fim do prazo de comprovação da meta (art. 4º-A), não cumprido” (fim_prazo_meta) (31/12/2025)",
    ),
    (
        "inscrição antes da decisão definitiva",
        {
            "tipo": "anp",
            "eventos": [
                *ANP,
                ev("ciencia_primeira_instancia", "2024-05-02"),
                ev("inscricao_divida_ativa", "2024-09-02"),
            ],
        },
        "eventos[3].evento",
        "o evento “Inscrição em Dívida Ativa” (inscricao_divida_ativa) deve vir depois de “Ciência da decisão definitiva” (ciencia_decisao_definitiva) ou "
        "“Renúncia expressa ao recurso” (renuncia_recurso): a decisão ainda não é definitiva",
    ),
    (
        "inscrição no prazo do pagamento",
        {
            "tipo": "anp",
            "eventos": [
                *ANP,
                ev("ciencia_primeira_instancia", "2024-05-02"),
                ev("ciencia_decisao_definitiva", "2024-08-01"),
                ev("inscricao_divida_ativa", "2024-08-30"),
            ],
        },
        "eventos[4].data",
        "o evento “Inscrição em Dívida Ativa” (inscricao_divida_ativa) (30/08/2024) deve ser posterior ao prazo "
        "“Pagamento (vencimento)” (pagamento) (02/09/2024)",
    ),
    (
        "valor_multa negativo",
        {"tipo": "anp", "eventos": ANP, "valor_multa": "-1"},
        "valor_multa",
        "não pode ser negativo",
    ),
]


@pytest.mark.parametrize(
    ("dados", "campo", "mensagem"), [c[1:] for c in CASOS], ids=[c[0] for c in CASOS]
)
def test_cada_regra_do_processo_tem_sua_mensagem(
    dados: Any, campo: str | None, mensagem: str
) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        ler_processo(dados)
    assert (erro.value.campo, erro.value.mensagem) == (campo, mensagem)


def test_referencia_e_o_outro_nome_do_id() -> None:
    """Issue 19: ``referencia`` (the ANP's process number) is ``id`` by another name: one of
    the two, stored and echoed as ``id``."""
    por_referencia = ler_processo({"tipo": "anp", "eventos": ANP, "referencia": "48610.1/2025"})
    por_id = ler_processo({"tipo": "anp", "eventos": ANP, "id": "48610.1/2025"})
    assert por_referencia.como_dict() == por_id.como_dict()
    assert por_referencia.como_dict()["id"] == "48610.1/2025"
    assert ler_processo({"tipo": "anp", "eventos": ANP, "referencia": 7}).identificacao == {"id": 7}
    with pytest.raises(EntradaInvalida) as erro:
        ler_processo({"tipo": "anp", "eventos": ANP, "referencia": "a", "id": "a"})
    assert (erro.value.campo, erro.value.mensagem) == (
        "referencia",
        "informe só um: referencia ou id (o mesmo campo, dois nomes)",
    )
    with pytest.raises(EntradaInvalida) as erro:
        ler_processo({"tipo": "anp", "eventos": ANP, "referencia": 1.5})
    assert (erro.value.campo, erro.value.mensagem) == (
        "referencia",
        "deve ser um texto ou um número inteiro, não 1.5",
    )


def test_o_corte_da_lista_nao_diz_que_o_art_6A_vale_desde_o_corte() -> None:
    """Review 4, W7: art. 6º-A is of Decreto 12.437 (DOU 17/04/2025); 01/01/2025 is the
    Parecer's cut-off for the targets due after 31/12/2024. The refusal says both, from the
    parameter's data: a changed source in the data changes the message."""
    dados = {"tipo": "renovabio.lista", "eventos": [ev("fim_prazo_meta", "2024-12-31")]}
    with pytest.raises(EntradaInvalida) as erro:
        ler_processo(dados)
    mensagem = erro.value.mensagem
    assert "só vale desde" not in mensagem
    assert "DOU 17/04/2025" in mensagem and "Parecer nº 00041/2025/PF-ANP" in mensagem
    textos = {p.name: p.read_text(encoding="utf-8") for p in PARAMETROS.glob("*.toml")}
    parecer = 'fonte = { titulo = "Parecer nº 00041/2025/PF-ANP:'
    assert parecer in textos["ciclo.toml"]
    textos["ciclo.toml"] = textos["ciclo.toml"].replace(parecer, parecer.replace("041", "999"))
    with pytest.raises(EntradaInvalida) as erro:
        ler_processo(dados, ler_textos(textos))
    assert "Parecer nº 00999/2025/PF-ANP" in erro.value.mensagem
