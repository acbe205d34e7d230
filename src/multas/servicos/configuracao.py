"""Every ``MULTAS_*`` setting in one typed place: :class:`Configuracao` (pydantic-settings).

Each field is one environment variable (``MULTAS_`` + its name in capitals), with its type,
its default, its pt-BR description and, for the server's, the ``multas servir`` option that
overrides it. :func:`carregar` reads them, validates them and turns a bad value into a
:class:`~multas.nucleo.erros.ConfiguracaoInvalida` that names the variable (or the option) in pt-BR,
never a pydantic traceback. The documentation's table of settings is generated from these
fields (``scripts/paginas_docs.py``), so it cannot drift from them.

Who reads it, once, at start-up: ``multas servir`` (and each of its worker processes, which
read the same variables, exported by the parent with the options applied); the database
(:mod:`multas.servicos.persistencia`, when no URL is given); the compiled batch loops
(:mod:`multas.nucleo.kernel.lacos`). pydantic costs about a quarter of a second to import, so this
module is imported only on those paths, never by ``multas regimes`` or ``multas calcular``
(``tests/projeto/test_arquitetura.py`` checks it).
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from typing import Any

from pydantic import AliasChoices, Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from multas.nucleo.erros import ConfiguracaoInvalida
from multas.servicos.ambiente import OBSOLETAS, PREFIXO, avisar_obsoletas, url_de_banco

__all__ = ["OBSOLETAS", "PREFIXO", "PREVISTAS", "Configuracao", "Variavel", "carregar"]

#: settings planned but not read yet (none now; kept for the documentation's generator)
PREVISTAS: tuple[tuple[str, str], ...] = ()


class Configuracao(BaseSettings):
    """The settings (the environment's ``MULTAS_*`` variables, or the values given).

    >>> Configuracao(servir_porta=8080).servir_porta
    8080
    """

    model_config = SettingsConfigDict(
        env_prefix=PREFIXO,
        env_ignore_empty=True,  # an empty variable is an unset one, as before
        frozen=True,
        populate_by_name=True,
        extra="forbid",
    )

    database_url: str | None = Field(
        default=None,
        description="O banco dos casos salvos, dos processos e da auditoria: "
        "`sqlite:///caminho/multas.db` ou `postgresql+psycopg://usuario:senha@servidor:5432/banco` "
        "(`postgresql://` também serve; o driver é o psycopg 3). Vale para o servidor e para os "
        "comandos que aceitam `--banco` (onde `--banco` vale mais que ela; `--banco` aceita "
        "também um caminho, como `/caminho/multas.db`).",
        json_schema_extra={
            "tipo": "URL",
            "padrao": "SQLite em `multas.db` na pasta de dados do usuário (no Linux, "
            "`~/.local/share/multas/`), a mesma de qualquer pasta",
        },
    )
    database_url_dono: str | None = Field(
        default=None,
        validation_alias=AliasChoices("MULTAS_DATABASE_URL_DONO", *OBSOLETAS),
        description="No PostgreSQL, um papel que roda as migrações (o dono do esquema), quando "
        "o papel da aplicação (`MULTAS_DATABASE_URL`) não deve ter esse poder. Sem ela, as "
        "migrações rodam com `MULTAS_DATABASE_URL`. Só vale com `MULTAS_DATABASE_URL` (não com "
        "`--banco`).",
        json_schema_extra={"tipo": "URL", "padrao": "a própria `MULTAS_DATABASE_URL`"},
    )
    servir_host: str = Field(
        default="127.0.0.1",
        min_length=1,
        description="O endereço em que `multas servir` escuta. O padrão é o loopback: só esta "
        "máquina tem acesso; `0.0.0.0` (ou o endereço de uma interface) abre o servidor para "
        "a rede e exige autenticação; `::1` e endereços IPv6 também servem.",
        json_schema_extra={"tipo": "endereço", "opcao": "--host"},
    )
    servir_porta: int = Field(
        default=8000,
        ge=1,
        le=65535,
        description="A porta TCP em que `multas servir` escuta.",
        json_schema_extra={"tipo": "inteiro de 1 a 65535", "opcao": "--porta"},
    )
    servir_trabalhadores: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Quantos processos atendem (os *workers* do uvicorn); cada um lê esta "
        "mesma configuração.",
        json_schema_extra={"tipo": "inteiro de 1 a 64", "opcao": "--trabalhadores"},
    )
    limite_requisicoes: float | None = Field(
        default=None,
        ge=0,
        allow_inf_nan=False,
        description="Requisições por segundo por usuário (ou por endereço, sem autenticação); "
        "0 desliga o limite. Acima dele, HTTP 429 com `Retry-After`.",
        json_schema_extra={
            "tipo": "número ≥ 0",
            "padrao": "50 com autenticação; sem limite no modo aberto local",
            "opcao": "--limite-requisicoes",
        },
    )
    tls_certificado: str | None = Field(
        default=None,
        description="O certificado TLS (PEM) com que `multas servir` atende em HTTPS, com a "
        "chave abaixo. Sem ele, o servidor atende em HTTP: fora do endereço local, entrar pela "
        "página só funciona por HTTPS (aqui, ou num proxy reverso).",
        json_schema_extra={"tipo": "arquivo", "opcao": "--certificado"},
    )
    tls_chave: str | None = Field(
        default=None,
        description="A chave privada (PEM) do certificado TLS.",
        json_schema_extra={"tipo": "arquivo", "opcao": "--chave"},
    )
    proxies_confiaveis: str | None = Field(
        default=None,
        description="Endereços (separados por vírgula) dos proxies reversos cujos cabeçalhos "
        "`X-Forwarded-For` e `X-Forwarded-Proto` valem: o endereço do cliente (para os limites "
        "de tentativas) e o HTTPS vêm deles. Sem ela, esses cabeçalhos são ignorados, venham "
        "de onde vierem.",
        json_schema_extra={"tipo": "endereços", "opcao": "--proxy-confiavel"},
    )
    aceitar_papel_inseguro: bool = Field(
        default=False,
        description="Inicia o servidor mesmo quando o papel do banco (`MULTAS_DATABASE_URL`) "
        "pode alterar ou desligar a auditoria (no PostgreSQL: dono das tabelas, `CREATEROLE`, "
        "superusuário). **Inseguro**: quem tiver a senha desse papel pode reescrever a história; "
        "a página mostra o aviso aos administradores.",
        json_schema_extra={"tipo": "sim/não", "opcao": "--papel-inseguro"},
    )
    sem_numba: bool = Field(
        default=False,
        description="Roda os laços compilados com Numba (a exposição com milhões de linhas, "
        "as medições) como Python comum: muito mais lento; para depurar.",
        json_schema_extra={"tipo": "sim/não (`1`/`0`, `true`/`false`)"},
    )

    @field_validator("database_url", "database_url_dono")
    @classmethod
    def _url(cls, valor: str | None) -> str | None:
        return url_de_banco(valor)

    @field_validator("tls_certificado", "tls_chave")
    @classmethod
    def _arquivo(cls, valor: str | None) -> str | None:
        if valor is not None and not os.path.isfile(valor):
            raise ValueError(f"arquivo não encontrado: {valor}")
        return valor

    @field_validator("proxies_confiaveis")
    @classmethod
    def _proxies(cls, valor: str | None) -> str | None:
        if valor is None:
            return None
        enderecos = [e.strip() for e in valor.split(",") if e.strip()]
        for endereco in enderecos:
            try:
                ipaddress.ip_network(endereco, strict=False)
            except ValueError:
                raise ValueError(f"endereço inválido: {endereco!r}") from None
        return ",".join(enderecos) or None

    @model_validator(mode="after")
    def _tls_completo(self) -> Configuracao:
        if (self.tls_certificado is None) != (self.tls_chave is None):
            raise ValueError("use o certificado e a chave juntos (--certificado e --chave)")
        return self

    @field_validator("servir_host")
    @classmethod
    def _host(cls, valor: str) -> str:
        if not valor.strip() or any(c.isspace() for c in valor.strip()):
            raise ValueError(f"endereço inválido: {valor!r}")
        return valor.strip()

    @classmethod
    def variaveis(cls) -> list[Variavel]:
        """Each setting as documented: its variable, option, type, default and description."""
        return [_variavel(nome, campo) for nome, campo in cls.model_fields.items()]

    def ambiente(self) -> dict[str, str]:
        """These settings as the environment variables that give them back (what a child
        process, such as a server's worker, needs to read the same settings)."""
        variaveis: dict[str, str] = {}
        for v in self.variaveis():
            valor = getattr(self, v.campo)
            if valor is not None:
                variaveis[v.nome] = str(int(valor)) if isinstance(valor, bool) else str(valor)
        return variaveis


@dataclass(frozen=True)
class Variavel:
    campo: str
    nome: str
    tipo: str
    padrao: str
    descricao: str
    opcao: str | None = None


def _extra(campo: Any) -> dict[str, Any]:
    extra = campo.json_schema_extra
    return extra if isinstance(extra, dict) else {}


def _variavel(nome: str, campo: Any) -> Variavel:
    extra = _extra(campo)
    padrao = extra.get("padrao")
    if padrao is None:
        padrao = "não" if campo.default is False else f"`{campo.default}`"
    return Variavel(
        campo=nome,
        nome=PREFIXO + nome.upper(),
        tipo=str(extra.get("tipo", "")),
        padrao=str(padrao),
        descricao=str(campo.description or ""),
        opcao=extra.get("opcao"),
    )


def carregar(**valores: Any) -> Configuracao:
    """The settings from the environment, with ``valores`` (the command line's options, by
    field name; ``None`` means not given) over them; a bad value raises
    :class:`ConfiguracaoInvalida`, in pt-BR, naming the variable or the option.

    >>> carregar(servir_porta=0)
    Traceback (most recent call last):
    multas.nucleo.erros.ConfiguracaoInvalida: --porta: deve ser no mínimo 1 (recebido: 0)
    """
    dados = {campo: valor for campo, valor in valores.items() if valor is not None}
    try:
        configuracao = Configuracao(**dados)
    except ValidationError as erro:
        primeiro = erro.errors()[0]
        raise ConfiguracaoInvalida(_nome(primeiro, dados), _mensagem(primeiro)) from None
    avisar_obsoletas()
    return configuracao


def _nome(erro: Any, dados: dict[str, Any]) -> str:
    """The variable (or the option, for a value given on the command line) of an error."""
    local = str(erro["loc"][0]) if erro.get("loc") else ""
    if not local:  # a check of several settings together: the TLS pair
        return (
            "--certificado/--chave"
            if "tls_certificado" in dados
            else "MULTAS_TLS_CERTIFICADO/MULTAS_TLS_CHAVE"
        )
    campos = Configuracao.model_fields
    if local in dados:
        opcao = _extra(campos[local]).get("opcao") if local in campos else None
        return str(opcao or local)
    for nome, campo in campos.items():
        alias = campo.validation_alias
        nomes = [str(n) for n in alias.choices] if isinstance(alias, AliasChoices) else []
        if local == nome or local.upper() in nomes:
            # the one the environment set (an obsolete name too), else the current name
            return next((n for n in nomes if os.environ.get(n)), PREFIXO + nome.upper())
    return local.upper()


def _mensagem(erro: Any) -> str:
    """A pydantic error in pt-BR (the value given is shown, except in a URL's error)."""
    tipo = str(erro.get("type", ""))
    contexto: dict[str, Any] = erro.get("ctx") or {}
    recebido = f" (recebido: {erro.get('input')!r})"
    if tipo == "value_error":
        return str(contexto.get("error", "valor inválido"))
    if tipo in ("int_parsing", "int_from_float", "int_type"):
        return "deve ser um número inteiro" + recebido
    if tipo in ("float_parsing", "float_type"):
        return "deve ser um número" + recebido
    if tipo == "finite_number":
        return "deve ser um número finito" + recebido
    if tipo == "bool_parsing":
        return "use 1 ou 0 (ou true/false)" + recebido
    if tipo in ("greater_than_equal", "greater_than"):
        limite = _numero(contexto.get("ge", contexto.get("gt")))
        return f"deve ser no mínimo {limite}" + recebido
    if tipo in ("less_than_equal", "less_than"):
        limite = _numero(contexto.get("le", contexto.get("lt")))
        return f"deve ser no máximo {limite}" + recebido
    if tipo == "string_too_short":
        return "não pode ser vazio"
    return "valor inválido" + recebido


def _numero(valor: Any) -> str:
    return str(int(valor)) if isinstance(valor, float) and valor.is_integer() else str(valor)
