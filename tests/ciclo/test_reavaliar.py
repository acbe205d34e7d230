"""``multas reavaliar`` (spec v3, § 6): a change of the legal data lists the saved cases whose
result changed, old and new side by side, and the stored processos the rules now refuse."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from click.testing import CliRunner

from multas import calcular
from multas.principal import cli
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from multas.servicos.reavaliar import reavaliar
from tests.utils.legislacao import com_o_ponto_facultativo, textos_com_o_ponto_facultativo

#: 15/06/2026 + 30 = 15/07/2026: with the fictitious ponto facultativo, 16/07
MORA = {
    "regime": "anp.mora",
    "principal": "1000.00",
    "data_ciencia": "2026-06-15",
    "data_pagamento": "2026-07-16",
}


def test_reavaliar_lista_o_que_mudou(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    repositorio = Repositorio(url)
    # saved under the fictitious calendar: vencimento 16/07, no late charges
    antigo = calcular(MORA, legislacao=com_o_ponto_facultativo())
    repositorio.salvar(
        regime="anp.mora",
        entrada=json.dumps(MORA),
        resultado=antigo,
        versao_motor="teste",
        versao_legislacao=com_o_ponto_facultativo().versao,
    )
    igual = {**MORA, "data_ciencia": "2025-06-15", "data_pagamento": "2025-07-15"}
    repositorio.salvar(
        regime="anp.mora",
        entrada=json.dumps(igual),
        resultado=calcular(igual),
        versao_motor="teste",
        versao_legislacao="x",
    )
    itens = reavaliar(Ciclo(repositorio))
    mudou = {(i["id"], i["campo"]): (i["antes"], i["depois"]) for i in itens}
    assert mudou[(1, "vencimento")] == ("2026-07-16", "2026-07-15")
    assert mudou[(1, "valor")] == ("1000.00", "1030.00")
    assert all(i["id"] == 1 for i in itens)  # the unchanged case is not listed
    r = CliRunner().invoke(cli, ["reavaliar", "--banco", url, "-f", "json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["itens"] == itens
    r = CliRunner().invoke(cli, ["reavaliar", "--banco", url, "-f", "csv"])
    assert r.stdout.splitlines()[0] == "registro,id,regime,campo,antes,depois,erro"
    r = CliRunner().invoke(cli, ["reavaliar", "--banco", url])
    assert "caso nº 1 (anp.mora), vencimento: 2026-07-16 → 2026-07-15" in r.stdout


def test_reavaliar_sem_mudancas(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["reavaliar", "--banco", f"sqlite:///{tmp_path / 'm.db'}"])
    assert r.exit_code == 0 and "Nada mudou" in r.stdout


def test_processo_que_as_regras_de_agora_recusam_e_listado_nunca_perdido(tmp_path: Path) -> None:
    """A processo stored under v2 that v3 refuses (a sanctions list for the 2024 target): it
    stays stored and listed with its pt-BR erro, in reavaliar and in every listing."""
    from datetime import date

    from multas.servicos.persistencia.ciclo import NovoProcesso

    ciclo = Ciclo(Repositorio(f"sqlite:///{tmp_path / 'm.db'}"))
    armazenado = ciclo.repo.criar_processo(
        NovoProcesso(
            tipo="renovabio.lista",
            calendario="expediente",
            eventos=(("fim_prazo_meta", date(2024, 12, 31)),),
            cnpj="12.345.678/0001-95",
        ),
        usuario="teste",
    )
    [item] = reavaliar(ciclo)
    assert (item["registro"], item["id"]) == ("processo", armazenado.id)
    assert "01/01/2025" in item["erro"]
    [listado] = ciclo.listar()
    assert listado.erro is not None and listado.armazenado.id == armazenado.id
    assert any(p.mensagem and "01/01/2025" in p.mensagem for p in ciclo.invalidos())


#: the appeal deadline counts 10 days from 05/07/2026: 15/07, or 16/07 with the fictitious
#: ponto facultativo of 15/07/2026
PROCESSO = {
    "tipo": "anp",
    "eventos": [
        {"evento": "infracao", "data": "2026-01-10"},
        {"evento": "auto_infracao", "data": "2026-03-01"},
        {"evento": "ciencia_primeira_instancia", "data": "2026-07-05"},
    ],
}


def test_reavaliar_compara_os_prazos_dos_processos_com_a_legislacao_anterior(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    ciclo = Ciclo(Repositorio(url))
    processo_id = ciclo.criar(PROCESSO).armazenado.id
    outro = ciclo.criar({**PROCESSO, "eventos": PROCESSO["eventos"][:2]}).armazenado.id
    referencia = date(2026, 7, 10)
    itens = reavaliar(ciclo, anterior=com_o_ponto_facultativo(), referencia=referencia)
    mudou = {(i["id"], i["campo"]): (i["antes"], i["depois"]) for i in itens}
    assert mudou == {(processo_id, "prazo.recurso"): ("2026-07-16", "2026-07-15")}
    assert outro not in {i["id"] for i in itens}  # its deadlines did not move
    assert reavaliar(ciclo, referencia=referencia) == []  # without it: nothing to compare
    # the CLI, from a copy of the earlier parameter files
    pasta = tmp_path / "anterior"
    pasta.mkdir()
    for nome, texto in textos_com_o_ponto_facultativo().items():
        (pasta / nome).write_text(texto, encoding="utf-8")
    argumentos = ["reavaliar", "--banco", url, "--data-referencia", "2026-07-10"]
    r = CliRunner().invoke(cli, [*argumentos, "--legislacao-anterior", str(pasta)])
    assert r.exit_code == 0, r.output
    assert f"processo nº {processo_id} (anp), prazo.recurso: 2026-07-16 → 2026-07-15" in r.stdout


def test_reavaliar_recusa_uma_pasta_que_nao_e_legislacao(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    vazia = tmp_path / "vazia"
    vazia.mkdir()
    ruim = tmp_path / "ruim"
    ruim.mkdir()
    (ruim / "renovabio.toml").write_bytes(b"\xff\xfe nao e utf-8")
    quebrada = tmp_path / "quebrada"
    quebrada.mkdir()
    (quebrada / "renovabio.toml").write_text("[[[ isto não é TOML", encoding="utf-8")
    for pasta in (vazia, ruim, quebrada):
        r = CliRunner().invoke(
            cli, ["reavaliar", "--banco", url, "--legislacao-anterior", str(pasta)]
        )
        assert r.exit_code == 2, (pasta, r.output)
        assert "Traceback" not in r.output and r.output.strip(), pasta
    r = CliRunner().invoke(cli, ["reavaliar", "--banco", url, "--data-referencia", "2026-02-30"])
    assert r.exit_code == 2 and "data_referencia" in r.output
