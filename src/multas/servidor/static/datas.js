// multas: date fields the Brazilian way, whatever the browser's language (issue 20, item 5).
// A date field (input[data-data]) takes dd/mm/aaaa (d/m/aaaa too), ddmmaaaa (eight digits are
// always day, month and year) or aaaa-mm-dd, and shows dd/mm/aaaa. This script only helps: it
// checks the field when it is left or changed, with a pt-BR message at the field, and writes
// the date as dd/mm/aaaa. The server reads the same formats and is the one that decides.
"use strict";

const FORMATOS = "dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd";

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
  if (ano < 1 || mes < 1 || mes > 12 || dia < 1 || dia > diasNoMes(mes, ano)) {
    return { erro: `Data inexistente: dia ${dia}, mês ${mes}, ano ${String(ano).padStart(4, "0")}.` };
  }
  return { dia, mes, ano };
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
  aviso.textContent = mensagem;
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
