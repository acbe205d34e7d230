"""Descriptions for people and machines: the regimes (fields, readings, outputs) and the
history of every legal parameter. Used by ``multas regimes``, ``multas legislacao`` and the API.
"""

from __future__ import annotations

from typing import Any

from multas.nucleo.contrato import TIPOS_DESCRICAO
from multas.nucleo.regimes import REGIMES


def descrever_regimes() -> list[dict[str, Any]]:
    return [
        {
            "regime": regime.nome,
            "titulo": regime.titulo,
            "fundamento": regime.fundamento,
            "campos": [
                {
                    "nome": c.nome,
                    "tipo": c.tipo,
                    "obrigatorio": c.obrigatorio,
                    "descricao": c.descricao,
                    **({"opcoes": list(c.opcoes)} if c.opcoes else {}),
                }
                for c in regime.caso.campos()
            ],
            "interpretacao": {
                chave: {"opcoes": list(opcoes), "padrao": opcoes[0]}
                | (
                    {"sinonimos": dict(regime.sinonimos[chave])}
                    if chave in regime.sinonimos
                    else {}
                )
                for chave, opcoes in regime.interpretacoes.items()
            },
            "saidas": ["valor", *regime.saidas],
        }
        for regime in REGIMES.values()
    ]


def regimes_como_texto() -> str:
    linhas: list[str] = []
    for regime in descrever_regimes():
        linhas += [
            f"{regime['regime']}",
            f"  {regime['titulo']}",
            f"  Fundamento: {regime['fundamento']}",
        ]
        linhas.append("  Campos:")
        for c in regime["campos"]:
            obrigatorio = "obrigatório" if c["obrigatorio"] else "opcional"
            tipo = " | ".join(c["opcoes"]) if c.get("opcoes") else TIPOS_DESCRICAO[c["tipo"]]
            linhas.append(f"    {c['nome']:<26} {tipo}; {obrigatorio}")
            linhas.append(f"    {'':<26} {c['descricao']}")
        if regime["interpretacao"]:
            linhas.append("  Leituras (interpretacao):")
            for chave, info in regime["interpretacao"].items():
                sinonimos = "".join(
                    f"; {sinonimo} = {opcao}"
                    for sinonimo, opcao in info.get("sinonimos", {}).items()
                )
                linhas.append(
                    f"    {chave}: {' | '.join(info['opcoes'])} (padrão: {info['padrao']}{sinonimos})"
                )
        linhas.append(f"  Resultados: {', '.join(regime['saidas'])}")
        linhas.append("")
    return "\n".join(linhas)


def descrever_legislacao(prefixo: str = "") -> dict[str, Any]:
    from multas.nucleo.legislacao import carregar

    legislacao = carregar()
    return {
        "versao": legislacao.versao,
        "parametros": [
            {
                "nome": p.nome,
                "descricao": p.descricao,
                "unidade": p.unidade,
                "vigencias": [
                    {
                        "inicio": v.inicio.isoformat(),
                        "fim": v.fim.isoformat() if v.fim else None,
                        "valor": _valor_json(v.valor),
                        "dispositivo": v.dispositivo,
                        "redacao": v.redacao,
                        "texto": v.texto,
                        "fonte": v.fonte.como_dict(),
                    }
                    for v in p.vigencias
                ],
            }
            for p in legislacao.parametros.values()
            if p.nome.startswith(prefixo)
        ],
        "prazos_comprovacao": [
            {
                "ano_meta_inicio": linha.ano_meta_inicio,
                "ano_meta_fim": linha.ano_meta_fim,
                "prazo_exemplo": linha.prazo(linha.ano_meta_inicio).isoformat(),
                "dispositivo": linha.dispositivo,
                "fonte": linha.fonte.como_dict(),
            }
            for linha in legislacao.prazos_comprovacao
        ]
        if "renovabio.prazo_comprovacao".startswith(prefixo)
        else [],
    }


def _valor_json(valor: Any) -> Any:
    from fractions import Fraction

    from multas.nucleo.dinheiro import exibir

    if isinstance(valor, Fraction):
        return (
            exibir(valor) if valor.denominator in (1, 2, 4, 5, 10, 20, 25, 50, 100) else str(valor)
        )
    if isinstance(valor, dict):
        return {chave: _valor_json(item) for chave, item in valor.items()}
    return valor


def legislacao_como_texto(prefixo: str = "") -> str:
    from multas.nucleo.datas import formatar_data

    dados = descrever_legislacao(prefixo)
    linhas = [f"Legislação (versão dos dados {dados['versao']})", ""]
    for p in dados["parametros"]:
        linhas.append(f"{p['nome']}  [{p['unidade']}]")
        linhas.append(f"  {p['descricao']}")
        for v in p["vigencias"]:
            inicio = formatar_data(_data(v["inicio"]))
            periodo = (
                f"de {inicio} a {formatar_data(_data(v['fim']))}" if v["fim"] else f"desde {inicio}"
            )
            valor = v["valor"]
            if isinstance(valor, dict):
                valor = ", ".join(f"{k}={w}" for k, w in valor.items() if k != "descricao")
            mostrado = f": {valor}" if valor is not None else ""
            linhas.append(f"  · {periodo}{mostrado}")
            linhas.append(
                f"      {v['dispositivo']} ({v['redacao']})"
                if v["redacao"]
                else f"      {v['dispositivo']}"
            )
            linhas.append(f"      Fonte: {_fonte(v['fonte'])}")
        linhas.append("")
    if dados["prazos_comprovacao"]:
        linhas.append("renovabio.prazo_comprovacao  [por ano da meta]")
        for linha in dados["prazos_comprovacao"]:
            anos = (
                f"{linha['ano_meta_inicio']}"
                if linha["ano_meta_fim"] == linha["ano_meta_inicio"]
                else f"{linha['ano_meta_inicio']} em diante"
            )
            linhas.append(
                f"  · meta de {anos}: prazo {formatar_data(_data(linha['prazo_exemplo']))}"
            )
            linhas.append(f"      {linha['dispositivo']}")
            linhas.append(f"      Fonte: {_fonte(linha['fonte'])}")
        linhas.append("")
    return "\n".join(linhas)


def _fonte(fonte: dict[str, str | None]) -> str:
    """A source for people: its title, and its page between angle brackets when it has one."""
    return f"{fonte['titulo']} <{fonte['href']}>" if fonte["href"] else str(fonte["titulo"])


def _data(texto: str) -> Any:
    from datetime import date

    return date.fromisoformat(texto)


_TIPOS_DIA = {
    "feriado": "feriado (sem expediente)",
    "ponto_facultativo": "ponto facultativo (sem expediente)",
    "inicio_tardio": "início tardio (há expediente: é dia útil)",
    "encerramento_antecipado": "encerramento antecipado (conta como dia útil; nenhum prazo termina nele)",
}


def ler_ano_calendario(bruto: object) -> int:
    """The year of ``multas calendario AAAA`` / ``GET /api/v1/calendario/AAAA``."""
    from multas.nucleo.erros import EntradaInvalida

    texto = str(bruto)
    if not (texto.isascii() and texto.isdigit() and len(texto) <= 4 and 1 <= int(texto) <= 9999):
        raise EntradaInvalida(
            "ano", f"ano inválido: {str(bruto)[:20]!r} (use AAAA, de 0001 a 9999)"
        )
    return int(texto)


def descrever_calendario(ano: int, legislacao: Any = None) -> dict[str, Any]:
    """The year's days without full expediente (spec § 1): ``{"ano", "transcrito", "atos",
    "dias", "fora_do_nacional"}``, sorted by date; ``fora_do_nacional`` lists the local and
    conditional acts, never applied (the user may give them as ``dias_sem_expediente``).

    >>> c = descrever_calendario(2025)
    >>> c["transcrito"], [d["data"] for d in c["dias"] if d["tipo"] == "inicio_tardio"]
    (True, ['2025-03-05'])
    """
    from multas.nucleo.legislacao import carregar

    federal = (legislacao or carregar()).calendario
    return federal.ano(ano).como_dict() | {
        "fora_do_nacional": [dia.como_dict() for dia in federal.locais(ano)]
    }


def calendario_como_texto(ano: int, legislacao: Any = None) -> str:
    from multas.nucleo.calendario import aviso_nao_transcrito
    from multas.nucleo.datas import data_com_dia_da_semana
    from multas.nucleo.legislacao import carregar

    federal = (legislacao or carregar()).calendario
    calendario = federal.ano(ano)
    linhas = [f"Calendário da administração pública federal, {ano:04d}"]
    if calendario.transcrito:
        linhas += ["Atos:"] + [f"  - {a.ato} (fontes: {a.fonte})" for a in calendario.atos]
    else:
        linhas.append(f"Aviso: {aviso_nao_transcrito(ano)}")
    linhas.append("Dias:")
    for dia in sorted(calendario.dias):
        registro = calendario.dias[dia]
        linhas.append(
            f"  {data_com_dia_da_semana(dia)}: {registro.nome}; {_TIPOS_DIA[registro.tipo]}; "
            f"{registro.ato}"
        )
    locais = federal.locais(ano)
    if locais:
        linhas.append(
            "Atos locais ou condicionais (não aplicados; informe-os em dias_sem_expediente se "
            "valem para a repartição):"
        )
        linhas += [
            f"  {data_com_dia_da_semana(x.data)}: {x.nome} ({x.ambito}); {x.ato}" for x in locais
        ]
    return "\n".join(linhas) + "\n"
