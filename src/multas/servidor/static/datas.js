// multas: date fields the Brazilian way, whatever the browser's language (issue 20, item 5).
// A date field (input[data-data]) takes dd/mm/aaaa (d/m/aaaa too), ddmmaaaa (eight digits are
// always day, month and year) or aaaa-mm-dd, with a year from 1900 to 9999 (an eight-digit
// aaaammdd such as 20250315 is refused with a hint, never read as a wrong date), and shows
// dd/mm/aaaa. The same rules as multas.datas.data_digitada. This script only helps: it
// checks the field when it is left or changed, with a pt-BR message at the field, and writes
// the date as dd/mm/aaaa. The server reads the same formats and is the one that decides.
"use strict";

const FORMATOS = "dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd";
const ANO_MINIMO = 1900;
const ANO_MAXIMO = 9999;

function diasNoMes(mes, ano) {
  if (mes === 2) {
    const bissexto = (ano % 4 === 0 && ano % 100 !== 0) || ano % 400 === 0;
    return bissexto ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(mes) ? 30 : 31;
}

// The date typed, as {dia, mes, ano}, or a pt-BR message saying why it is not one.
function lerDataDigitada(texto) {
  const limpo = texto.trim();
  let partes = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(limpo) || /^(\d{2})(\d{2})(\d{4})$/.exec(limpo);
  let dia, mes, ano;
  if (partes) {
    [dia, mes, ano] = [Number(partes[1]), Number(partes[2]), Number(partes[3])];
  } else if ((partes = /^(\d{4})-(\d{2})-(\d{2})$/.exec(limpo))) {
    [ano, mes, dia] = [Number(partes[1]), Number(partes[2]), Number(partes[3])];
  } else {
    return { erro: `Data inválida: use ${FORMATOS} (ex.: 15/03/2025).` };
  }
  const lido = `dia ${dia}, mês ${mes}, ano ${String(ano).padStart(4, "0")}`;
  const dica = /^\d{8}$/.test(limpo) ? dicaAaaammdd(limpo) : "";
  if (ano < ANO_MINIMO || ano > ANO_MAXIMO) {
    return {
      erro: `Ano fora do intervalo aceito (${lido}): o ano de uma data digitada vai de ${ANO_MINIMO} a ${ANO_MAXIMO}${dica}.`,
    };
  }
  if (mes < 1 || mes > 12 || dia < 1 || dia > diasNoMes(mes, ano)) {
    return { erro: `Data inexistente: ${lido}${dica}.` };
  }
  return { dia, mes, ano };
}

// Eight digits typed as aaaammdd (20250315): the hint saying how to type that date, or "".
function dicaAaaammdd(oito) {
  const [ano, mes, dia] = [Number(oito.slice(0, 4)), Number(oito.slice(4, 6)), Number(oito.slice(6))];
  if (ano < ANO_MINIMO || ano > ANO_MAXIMO || mes < 1 || mes > 12 || dia < 1 || dia > diasNoMes(mes, ano)) {
    return "";
  }
  return `; oito dígitos são sempre ddmmaaaa: para ${comoTexto({ dia, mes, ano })} digite ${oito.slice(6)}${oito.slice(4, 6)}${oito.slice(0, 4)}`;
}

function comoTexto({ dia, mes, ano }) {
  return `${String(dia).padStart(2, "0")}/${String(mes).padStart(2, "0")}/${String(ano).padStart(4, "0")}`;
}

// The field's own message, next to it (and named by aria-describedby while it shows).
function mostrarMensagem(campo, mensagem) {
  const id = `erro-data-${campo.id || campo.name}`;
  let aviso = document.getElementById(id);
  const descritos = (campo.getAttribute("aria-describedby") || "").split(" ").filter((d) => d && d !== id);
  if (!mensagem) {
    if (aviso) {
      aviso.remove();
    }
    if (campo.dataset.dataInvalida) {
      campo.removeAttribute("aria-invalid");
      delete campo.dataset.dataInvalida;
    }
    if (descritos.length) {
      campo.setAttribute("aria-describedby", descritos.join(" "));
    } else {
      campo.removeAttribute("aria-describedby");
    }
    return;
  }
  if (!aviso) {
    aviso = document.createElement("p");
    aviso.id = id;
    aviso.className = "mensagem-erro mensagem-data";
    campo.insertAdjacentElement("afterend", aviso);
  }
  // read as "Erro: …" by a screen reader, as every message the server puts beside a field
  const prefixo = document.createElement("span");
  prefixo.className = "vh";
  prefixo.textContent = "Erro: ";
  aviso.replaceChildren(prefixo, mensagem);
  campo.setAttribute("aria-invalid", "true");
  campo.dataset.dataInvalida = "1";
  campo.setAttribute("aria-describedby", [id, ...descritos].join(" "));
}

// Checks the field; a valid date is written dd/mm/aaaa. Returns whether it is valid.
function conferirData(campo) {
  if (campo.value.trim() === "") {
    campo.setCustomValidity("");
    mostrarMensagem(campo, null);
    return true;
  }
  const lida = lerDataDigitada(campo.value);
  if (lida.erro) {
    campo.setCustomValidity(lida.erro);
    mostrarMensagem(campo, lida.erro);
    return false;
  }
  campo.value = comoTexto(lida);
  campo.setCustomValidity("");
  mostrarMensagem(campo, null);
  return true;
}

function campoDeData(alvo) {
  return alvo instanceof HTMLInputElement && alvo.matches("input[data-data]") ? alvo : null;
}

// Capture phase: the field is written dd/mm/aaaa before htmx (hx-trigger="change") reads it.
document.addEventListener("change", (evento) => {
  const campo = campoDeData(evento.target);
  if (campo) {
    conferirData(campo);
  }
}, true);

document.addEventListener("blur", (evento) => {
  const campo = campoDeData(evento.target);
  if (campo) {
    conferirData(campo);
  }
}, true);

// While typing, an old message no longer blocks the form; it is checked again when left.
document.addEventListener("input", (evento) => {
  const campo = campoDeData(evento.target);
  if (campo && campo.validationMessage) {
    campo.setCustomValidity("");
  }
});

// A form sent with Enter, without leaving the field: its dates are checked first.
document.addEventListener("submit", (evento) => {
  const invalidos = [...evento.target.querySelectorAll("input[data-data]")].filter((c) => !conferirData(c));
  if (invalidos.length) {
    evento.preventDefault();
    evento.stopImmediatePropagation();
    invalidos[0].focus();
    invalidos[0].reportValidity();
  }
}, true);
