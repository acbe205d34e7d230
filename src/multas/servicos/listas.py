"""The ANP's lists as of a date (sanctions, balance, referral), from the stored list
processos (the readings are in :mod:`multas.servicos.gestao`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from multas.nucleo.ciclo.prazos import fundamento
from multas.nucleo.datas import formatar_data
from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.servicos.processos import CicloProcessos, ProcessoDerivado

LISTAS = {
    "sancoes": "Lista de sanções (Decreto nº 9.888/2019, art. 6º-A)",
    "balanco": "Lista de balanço de biodiesel inconsistente (Decreto nº 9.888/2019, art. 9º-A)",
    "encaminhamento": "Relação encaminhada ao Ibama, à AGU e ao MPF (Decreto nº 9.888/2019, "
    "art. 6º, § 4º)",
}


class CicloListas(CicloProcessos):
    """The ANP's lists."""

    def lista(self, qual: str, data: date) -> dict[str, Any]:
        """One of the ANP's lists as of ``data`` (see the readings of
        :mod:`multas.servicos.gestao`)."""
        if qual not in LISTAS:
            raise EntradaInvalida(
                "lista", f"lista desconhecida: {mostrar_valor(qual)} (listas: {', '.join(LISTAS)})"
            )
        nome_parametro = {
            "sancoes": "ciclo.lista_sancoes",
            "balanco": "ciclo.lista_balanco",
            "encaminhamento": "ciclo.encaminhamento",
        }[qual]
        vigencia = self.legislacao.parametro(nome_parametro).em(data)
        vigencia_citada = vigencia or self.legislacao.parametro(nome_parametro).vigencias[0]
        itens: list[dict[str, Any]] = []
        erros: list[dict[str, Any]] = []
        aviso = None
        if vigencia is None:
            aviso = (
                f"Em {formatar_data(data)} o dispositivo ainda não existia (vigente desde "
                f"{formatar_data(vigencia_citada.inicio)}): a lista é vazia."
            )
        else:
            tipo = "renovabio.balanco" if qual == "balanco" else "renovabio.lista"
            for armazenado in self.repo.listar_processos(limite=None, tipo=tipo):
                processo = armazenado.como_processo(data)
                if not processo["eventos"] and armazenado.erro is None:
                    continue
                derivado = self.derivar_ou_erro(armazenado, data)
                if derivado.erro is not None:
                    # never on the list on the strength of a record that cannot be trusted,
                    # and never silently left off it
                    erros.append(self._item_erro(derivado))
                    continue
                item = self._item_lista(qual, derivado, data)
                if item is not None:
                    itens.append(item)
        itens.sort(
            key=lambda i: (
                i.get("data_inclusao") or i.get("fim_prazo_meta") or "",
                i["processo_id"],
            )
        )
        return {
            "lista": qual,
            "titulo": LISTAS[qual],
            "data": data.isoformat(),
            "fundamento": fundamento(vigencia_citada),
            "texto": vigencia_citada.texto,
            "itens": itens,
            "erros": erros,
            "avisos": ([aviso] if aviso else [])
            + [
                f"O processo nº {e['processo_id']} não pôde ser lido e não foi avaliado para "
                f"esta lista: {e['erro']}"
                for e in erros
            ],
        }

    def _item_lista(
        self, qual: str, derivado: ProcessoDerivado, data: date
    ) -> dict[str, Any] | None:
        armazenado = derivado.armazenado
        eventos = {e.evento: e.data for e in armazenado.eventos if e.data <= data}
        base = {
            "processo_id": armazenado.id,
            "id": armazenado.identificador,
            "cnpj": armazenado.cnpj,
            "nome": armazenado.nome,
            "estado": derivado.valido.estado,
        }
        if qual == "encaminhamento":
            fim = eventos["fim_prazo_meta"]
            if not fim < data:
                return None
            quitacao = eventos.get("quitacao_meta")
            return {
                **base,
                "fim_prazo_meta": fim.isoformat(),
                "quitacao_meta": quitacao.isoformat() if quitacao else None,
            }
        if "inclusao_lista" not in eventos or "retirada_lista" in eventos:
            return None
        prazos = {p.nome: p for p in derivado.valido.prazos}
        retirada = prazos.get("retirada_lista")
        item = {
            **base,
            "data_inclusao": eventos["inclusao_lista"].isoformat(),
            "prazo_retirada": retirada.data.isoformat() if retirada else None,
        }
        if qual == "sancoes":
            quitacao, pedido = eventos.get("quitacao_meta"), eventos.get("pedido_retirada")
            item["fim_prazo_meta"] = eventos["fim_prazo_meta"].isoformat()
            item["quitacao_meta"] = quitacao.isoformat() if quitacao else None
            item["pedido_retirada"] = pedido.isoformat() if pedido else None
        else:
            adequacao = eventos.get("comprovacao_adequacao")
            item["comprovacao_adequacao"] = adequacao.isoformat() if adequacao else None
        return item
