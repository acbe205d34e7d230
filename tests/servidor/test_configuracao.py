"""The MULTAS_* settings (issue 16, item 8): one typed class reads them all; a bad value is a
pt-BR error naming the variable (or the option), never a traceback; the options of ``multas
servir`` win over the variables; MULTAS_DATABASE_URL_MIGRACAO is the old name of
MULTAS_DATABASE_URL_DONO; and no other module reads a MULTAS_* variable itself."""

from __future__ import annotations

import logging
import os
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from multas.nucleo.erros import ConfiguracaoInvalida
from multas.principal import cli
from multas.servicos.configuracao import OBSOLETAS, PREVISTAS, Configuracao, carregar
from multas.servicos.persistencia import Repositorio
from tests.utils import MULTAS

RAIZ = Path(__file__).resolve().parents[2]
VARIAVEIS = [v.nome for v in Configuracao.variaveis()]


@pytest.fixture(autouse=True)
def ambiente_limpo(monkeypatch: pytest.MonkeyPatch) -> None:
    for nome in [*VARIAVEIS, *OBSOLETAS]:
        monkeypatch.delenv(nome, raising=False)


def test_sem_variaveis_os_padroes() -> None:
    c = carregar()
    assert (c.database_url, c.database_url_dono) == (None, None)
    assert (c.servir_host, c.servir_porta, c.servir_trabalhadores) == ("127.0.0.1", 8000, 1)
    assert c.limite_requisicoes is None and c.sem_numba is False


def test_cada_variavel_tipada(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "c.pem").write_text("certificado")
    (tmp_path / "k.pem").write_text("chave")
    valores = {
        "MULTAS_DATABASE_URL": "postgresql://app:s@127.0.0.1/multas",
        "MULTAS_DATABASE_URL_DONO": "postgresql://dono:s@127.0.0.1/multas",
        "MULTAS_SERVIR_HOST": " 0.0.0.0 ",
        "MULTAS_SERVIR_PORTA": "8080",
        "MULTAS_SERVIR_TRABALHADORES": "4",
        "MULTAS_LIMITE_REQUISICOES": "2.5",
        "MULTAS_SEM_NUMBA": "1",
        "MULTAS_TLS_CERTIFICADO": str(tmp_path / "c.pem"),
        "MULTAS_TLS_CHAVE": str(tmp_path / "k.pem"),
        "MULTAS_PROXIES_CONFIAVEIS": " 10.0.0.1 , 2001:db8::/32",
        "MULTAS_ACEITAR_PAPEL_INSEGURO": "true",
    }
    assert sorted(valores) == sorted(VARIAVEIS)  # a new setting gets a line here
    for nome, valor in valores.items():
        monkeypatch.setenv(nome, valor)
    c = carregar()
    assert c.database_url == "postgresql://app:s@127.0.0.1/multas"
    assert c.database_url_dono == "postgresql://dono:s@127.0.0.1/multas"
    assert (c.servir_host, c.servir_porta, c.servir_trabalhadores) == ("0.0.0.0", 8080, 4)
    assert c.limite_requisicoes == 2.5 and c.sem_numba is True
    assert (c.tls_certificado, c.tls_chave) == (str(tmp_path / "c.pem"), str(tmp_path / "k.pem"))
    assert c.proxies_confiaveis == "10.0.0.1,2001:db8::/32" and c.aceitar_papel_inseguro is True


def test_variavel_vazia_e_variavel_ausente(monkeypatch: pytest.MonkeyPatch) -> None:
    for nome in VARIAVEIS:
        monkeypatch.setenv(nome, "")
    assert carregar() == Configuracao()


@pytest.mark.parametrize(
    ("variavel", "valor", "mensagem"),
    [
        ("MULTAS_LIMITE_REQUISICOES", "muitas", "deve ser um número (recebido: 'muitas')"),
        ("MULTAS_LIMITE_REQUISICOES", "-1", "deve ser no mínimo 0"),
        ("MULTAS_LIMITE_REQUISICOES", "inf", "deve ser um número finito"),
        ("MULTAS_LIMITE_REQUISICOES", "nan", "deve ser um número finito"),
        ("MULTAS_SERVIR_PORTA", "0", "deve ser no mínimo 1"),
        ("MULTAS_SERVIR_PORTA", "65536", "deve ser no máximo 65535"),
        ("MULTAS_SERVIR_PORTA", "80.5", "deve ser um número inteiro"),
        ("MULTAS_SERVIR_TRABALHADORES", "65", "deve ser no máximo 64"),
        ("MULTAS_SERVIR_HOST", "127.0.0.1 8000", "endereço inválido"),
        ("MULTAS_SEM_NUMBA", "talvez", "use 1 ou 0"),
        ("MULTAS_DATABASE_URL", "dados/multas.db", "URL de banco inválida"),
        ("MULTAS_DATABASE_URL_DONO", "dono", "URL de banco inválida"),
        ("MULTAS_DATABASE_URL_MIGRACAO", "dono", "URL de banco inválida"),
    ],
)
def test_valor_invalido_nomeia_a_variavel_em_portugues(
    monkeypatch: pytest.MonkeyPatch, variavel: str, valor: str, mensagem: str
) -> None:
    monkeypatch.setenv(variavel, valor)
    with pytest.raises(ConfiguracaoInvalida) as erro:
        carregar()
    assert erro.value.variavel == variavel
    assert mensagem in erro.value.mensagem
    assert "Input should" not in str(erro.value)  # no English pydantic message


def test_url_invalida_nao_repete_o_valor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MULTAS_DATABASE_URL", "usuario:senha-secreta@servidor/banco")
    with pytest.raises(ConfiguracaoInvalida) as erro:
        carregar()
    assert "senha-secreta" not in str(erro.value)


def test_a_opcao_vale_mais_que_a_variavel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MULTAS_SERVIR_PORTA", "9000")
    monkeypatch.setenv("MULTAS_LIMITE_REQUISICOES", "5")
    assert carregar().servir_porta == 9000
    c = carregar(servir_porta=8081, limite_requisicoes=0.0, servir_host=None)
    assert (c.servir_porta, c.limite_requisicoes, c.servir_host) == (8081, 0.0, "127.0.0.1")
    monkeypatch.setenv("MULTAS_SERVIR_PORTA", "nenhuma")  # replaced: never read
    assert carregar(servir_porta=8081).servir_porta == 8081


def test_opcao_invalida_nomeia_a_opcao() -> None:
    with pytest.raises(ConfiguracaoInvalida, match=r"^--limite-requisicoes: .*finito"):
        carregar(limite_requisicoes=float("inf"))
    with pytest.raises(ConfiguracaoInvalida, match=r"^--host: "):
        carregar(servir_host="  ")


def test_migracao_e_o_nome_antigo_de_dono(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import multas.servicos.ambiente as ambiente

    monkeypatch.setattr(ambiente, "_AVISADAS", set())
    monkeypatch.setenv("MULTAS_DATABASE_URL_MIGRACAO", "postgresql://antigo@127.0.0.1/m")
    with caplog.at_level(logging.WARNING, logger="multas"):
        assert carregar().database_url_dono == "postgresql://antigo@127.0.0.1/m"
        carregar()
    avisos = [r.getMessage() for r in caplog.records]
    assert avisos == [
        "Aviso: MULTAS_DATABASE_URL_MIGRACAO está obsoleta; use MULTAS_DATABASE_URL_DONO "
        "(o mesmo valor)."
    ]  # once per process
    monkeypatch.setenv("MULTAS_DATABASE_URL_DONO", "postgresql://novo@127.0.0.1/m")
    assert carregar().database_url_dono == "postgresql://novo@127.0.0.1/m"  # the new name wins


def test_o_repositorio_migra_com_o_dono_da_configuracao(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    app, dono = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'd.db'}"
    monkeypatch.setenv("MULTAS_DATABASE_URL", app)
    monkeypatch.setenv("MULTAS_DATABASE_URL_MIGRACAO", dono)
    repositorio = Repositorio()
    assert (repositorio.url, repositorio.url_migracao) == (app, dono)
    repositorio.fechar()
    explicito = Repositorio(app)  # a URL given (--banco, tests): no role from the settings
    assert explicito.url_migracao is None
    explicito.fechar()


def test_ambiente_devolve_a_mesma_configuracao(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``multas servir --trabalhadores N`` hands its worker processes."""
    monkeypatch.setenv("MULTAS_DATABASE_URL", "sqlite:///banco.db")
    dada = carregar(servir_host="0.0.0.0", servir_porta=8081, limite_requisicoes=2.5)
    for nome in VARIAVEIS:
        monkeypatch.delenv(nome, raising=False)
    for nome, valor in dada.ambiente().items():
        monkeypatch.setenv(nome, valor)
    assert carregar() == dada


def test_so_a_configuracao_le_as_variaveis_multas() -> None:
    """Every MULTAS_* name in the package is a setting (or an old or planned one), and no
    module but multas.servicos.configuracao reads the environment for one."""
    conhecidas = {*VARIAVEIS, *OBSOLETAS, *(nome for nome, _ in PREVISTAS)}
    for arquivo in (RAIZ / "src" / "multas").rglob("*.py"):
        texto = arquivo.read_text(encoding="utf-8")
        desconhecidas = set(re.findall(r"MULTAS_[A-Z_]*[A-Z]", texto)) - conhecidas
        assert not desconhecidas, f"{arquivo}: {sorted(desconhecidas)}"
        if arquivo.name != "configuracao.py":
            leituras = re.findall(r"(?:environ|getenv|envvar)\W+[^\n]*MULTAS_", texto)
            assert not leituras, f"{arquivo} lê MULTAS_* fora de multas.servicos.configuracao"


def test_servir_com_variavel_invalida_explica_e_sai_com_2() -> None:
    r = CliRunner().invoke(cli, ["servir"], env={"MULTAS_LIMITE_REQUISICOES": "muitas"})
    assert r.exit_code == 2
    assert r.stderr.strip() == (
        "Erro: MULTAS_LIMITE_REQUISICOES: deve ser um número (recebido: 'muitas')"
    )


@pytest.mark.subprocesso  # another process
@pytest.mark.parametrize(
    "argumentos",
    [["prazos", "proximos"], ["usuarios", "listar"], ["auditoria", "verificar"]],
)
def test_comando_de_banco_com_url_invalida_explica_sem_rastro(
    tmp_path: Path, argumentos: list[str]
) -> None:
    ambiente = {**os.environ, "MULTAS_DATABASE_URL": "app:s3gr3d0@db.interno"}
    r = subprocess.run(
        [MULTAS, *argumentos], capture_output=True, text=True, cwd=tmp_path, env=ambiente
    )
    assert r.returncode == 2
    assert r.stderr.startswith("Erro: MULTAS_DATABASE_URL: URL de banco inválida")
    assert "Traceback" not in r.stderr and "s3gr3d0" not in r.stderr


def test_sem_numba_roda_os_lacos_em_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """MULTAS_SEM_NUMBA is read by the adapter (the core reads no environment), which asks
    the core for the plain-Python loop."""
    from multas.lote.comando import _numba
    from multas.nucleo.kernel.lacos import compilado

    assert _numba() is True
    monkeypatch.setenv("MULTAS_SEM_NUMBA", "1")
    assert _numba() is False
    laco = compilado("produtor_linhas", numba=False)
    assert repr(laco).startswith("<function produtor_linhas")  # not a Numba dispatcher
