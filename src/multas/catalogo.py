"""Descriptions for people and machines: the regimes (fields, readings, outputs) and the
history of every legal parameter. Used by ``multas regimes``, ``multas legislacao`` and the API.
"""

from __future__ import annotations

from typing import Any

from multas.contrato import TIPOS_DESCRICAO
from multas.regimes import REGIMES


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
                }
                for c in regime.caso.campos()
            ],
            "interpretacao": {
                chave: {"opcoes": list(opcoes), "padrao": opcoes[0]}
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
            linhas.append(f"    {c['nome']:<26} {TIPOS_DESCRICAO[c['tipo']]}; {obrigatorio}")
            linhas.append(f"    {'':<26} {c['descricao']}")
        if regime["interpretacao"]:
            linhas.append("  Leituras (interpretacao):")
            for chave, info in regime["interpretacao"].items():
                linhas.append(
                    f"    {chave}: {' | '.join(info['opcoes'])} (padrão: {info['padrao']})"
                )
        linhas.append(f"  Resultados: {', '.join(regime['saidas'])}")
        linhas.append("")
    return "\n".join(linhas)


def descrever_legislacao(prefixo: str = "") -> dict[str, Any]:
    from multas.legislacao import carregar

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
                        "fonte": v.fonte,
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
                "fonte": linha.fonte,
            }
            for linha in legislacao.prazos_comprovacao
        ]
        if "renovabio.prazo_comprovacao".startswith(prefixo)
        else [],
    }


def _valor_json(valor: Any) -> Any:
    from fractions import Fraction

    from multas.dinheiro import exibir

    if isinstance(valor, Fraction):
        return (
            exibir(valor) if valor.denominator in (1, 2, 4, 5, 10, 20, 25, 50, 100) else str(valor)
        )
    if isinstance(valor, dict):
        return {chave: _valor_json(item) for chave, item in valor.items()}
    return valor


def legislacao_como_texto(prefixo: str = "") -> str:
    from multas.datas import formatar_data

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
            linhas.append(f"      Fonte: {v['fonte']}")
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
            linhas.append(f"      Fonte: {linha['fonte']}")
        linhas.append("")
    return "\n".join(linhas)


def _data(texto: str) -> Any:
    from datetime import date

    return date.fromisoformat(texto)
