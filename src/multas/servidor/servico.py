"""What the API and the page share: computing a case, saving it, and the report of either.

One instance per app (``app.state.servico``). It holds the repository and, for tests, the
legislation to compute with (the shipped one by default).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from multas import __version__
from multas.nucleo.ciclo.documentos import MAXIMO_BYTES, MAXIMO_POR_EVENTO
from multas.nucleo.contrato import JSON, Leitura
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.identidade import ler_identidade
from multas.nucleo.json_exato import ler_json
from multas.nucleo.legislacao import Legislacao
from multas.nucleo.motor import calcular_caso, identificar, ler_caso
from multas.saidas.relatorio import Metadados
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Caso, Repositorio
from multas.servicos.relogio import agora, hoje
from multas.servidor.formulario import caso_canonico

#: a request body's limit, unless :data:`LIMITES_CORPO` says otherwise: one case is a few hundred
#: bytes (a year of daily quotes ~20 KiB), a processo or a form less
LIMITE_CORPO = 1024 * 1024
#: the routes (their paths as declared) whose body may be larger: the ledger's and the
#: processos' imports take a whole spreadsheet, as the file (API) or as the rows pasted (page);
#: the year takes the distributors and the quotes, as JSON (API) or as two files (page).
#: The one table of limits: :class:`multas.servidor.seguranca.LimiteCorpo` enforces it, and the
#: 413 names the limit.
LIMITES_CORPO: dict[str, int] = {
    "/api/v1/carteira/importar": 16 * LIMITE_CORPO,
    "/carteira/importar": 16 * LIMITE_CORPO,
    "/api/v1/ano": 16 * LIMITE_CORPO,
    "/api/v1/ano/notificacoes": 16 * LIMITE_CORPO,
    "/ano": 16 * LIMITE_CORPO,
    "/api/v1/processos/importar": 16 * LIMITE_CORPO,
    "/processos/importar": 16 * LIMITE_CORPO,
    # an event with its documents (spec § 6.2 v4): 20 files of 20 MiB, and 1 MiB for the
    # event itself and the multipart's headers; only a multipart/form-data body (:data:`SO_EM_MULTIPART`)
    "/api/v1/processos/{processo_id}/eventos": MAXIMO_POR_EVENTO * MAXIMO_BYTES + LIMITE_CORPO,
    "/processos/{processo_id}/eventos": MAXIMO_POR_EVENTO * MAXIMO_BYTES + LIMITE_CORPO,
}
#: the routes of :data:`LIMITES_CORPO` whose larger limit is for the files of a
#: ``multipart/form-data`` body only: any other body (the event in JSON, a urlencoded form)
#: keeps :data:`LIMITE_CORPO`
SO_EM_MULTIPART = frozenset(
    {"/api/v1/processos/{processo_id}/eventos", "/processos/{processo_id}/eventos"}
)


def limite_do_corpo(rota: str, multipart: bool = False) -> int:
    """The body limit of a route (its path as declared), for a multipart body or any other.

    >>> limite_do_corpo("/api/v1/casos"), limite_do_corpo("/processos/{processo_id}/eventos")
    (1048576, 1048576)
    >>> limite_do_corpo("/processos/{processo_id}/eventos", multipart=True) // 2**20
    401
    """
    if rota in SO_EM_MULTIPART and not multipart:
        return LIMITE_CORPO
    return LIMITES_CORPO.get(rota, LIMITE_CORPO)


def ler_corpo(corpo: bytes) -> Any:
    """The request body as exact JSON (Decimal numbers), or a pt-BR input error."""
    return ler_json(texto_do_corpo(corpo))


def texto_do_corpo(corpo: bytes) -> str:
    """The request body as text (UTF-8), or a pt-BR input error (its size was checked as it
    arrived: :data:`LIMITES_CORPO`)."""
    if not corpo.strip():
        raise EntradaInvalida(None, "corpo vazio: envie o caso em JSON")
    try:
        return corpo.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise EntradaInvalida(None, "o corpo deve estar codificado em UTF-8") from None


@dataclass
class Calculo:
    """A computed case: the canonical input and the result object."""

    regime: str
    entrada: dict[str, Any]
    resultado: dict[str, Any]


class Servico:
    def __init__(self, repositorio: Repositorio, legislacao: Legislacao | None = None) -> None:
        self.repositorio = repositorio
        self._legislacao = legislacao
        self._ciclo: Ciclo | None = None

    @property
    def ciclo(self) -> Ciclo:
        """Stored processos, lists, calendar and ledger (issue 9), on the same database."""
        if self._ciclo is None:
            self._ciclo = Ciclo(self.repositorio, self._legislacao)
        return self._ciclo

    @property
    def legislacao(self) -> Legislacao:
        """The legislation given, else the shipped one with this database's Selic (the
        months added by ``multas legislacao selic atualizar``, read when a rule needs them)."""
        if self._legislacao is not None:
            return self._legislacao
        from multas.servicos.selic import legislacao_com_selic

        return legislacao_com_selic(self.repositorio)

    def calcular(self, dados: object, leitura: Leitura = JSON) -> Calculo:
        regime, caso, interpretacao = ler_caso(dados, leitura)
        calculado = calcular_caso(regime, caso, interpretacao, self.legislacao, hoje=hoje())
        resultado = identificar(calculado, dados).como_dict()
        escolhida = (
            dict(dados["interpretacao"])
            if isinstance(dados, Mapping) and isinstance(dados.get("interpretacao"), Mapping)
            else {}
        )
        entrada = caso_canonico(caso, escolhida)
        if isinstance(dados, Mapping):  # who the case is about (cnpj, nome...), after regime
            entrada = {"regime": entrada.pop("regime"), **ler_identidade(dados), **entrada}
        return Calculo(regime.nome, entrada, resultado)

    def salvar(
        self, texto: str, usuario: str, origem: str, chave: str | None = None
    ) -> tuple[Caso, bool]:
        """Compute the case in ``texto`` (JSON) and save it with its input exactly as received.

        With an idempotency ``chave``, a key this user already used returns the case saved
        then, and ``True`` (a replay)."""
        dados = ler_json(texto)
        calculo = self.calcular(dados)
        campos: dict[str, Any] = {
            "regime": calculo.regime,
            "entrada": texto,
            "resultado": calculo.resultado,
            "versao_motor": __version__,
            "versao_legislacao": self.legislacao.versao,
            "origem": origem,
        }
        if chave is None:
            return self.repositorio.salvar(usuario=usuario, **campos), False
        resumo = hashlib.sha256(texto.encode("utf-8")).hexdigest()
        return self.repositorio.salvar_uma_vez(chave, resumo, usuario, **campos)

    def metadados(self, caso: Caso | None = None) -> Metadados:
        if caso is None:
            return Metadados.calculado(agora(), self.legislacao.versao)
        return Metadados(
            versao_motor=caso.versao_motor,
            versao_legislacao=caso.versao_legislacao,
            calculado_em=caso.criado_em,
            gerado_em=agora(),
            caso_id=caso.id,
            usuario=caso.usuario,
        )


def resumo_json(caso: Caso) -> dict[str, Any]:
    return {
        "id": caso.id,
        "regime": caso.regime,
        "valor": caso.valor,
        "usuario": caso.usuario,
        "origem": caso.origem,
        "criado_em": caso.criado_em.isoformat(),
        "versao_motor": caso.versao_motor,
        "versao_legislacao": caso.versao_legislacao,
        **caso.identidade(),
    }


def caso_json(caso: Caso) -> str:
    """A saved case as JSON text; its input and result are embedded exactly as stored
    (the input keeps its numbers as written: 1.820 stays 1.820)."""
    cabeca = json.dumps(resumo_json(caso), ensure_ascii=False)
    return f'{cabeca[:-1]}, "entrada": {caso.entrada}, "resultado": {caso.resultado}}}'
