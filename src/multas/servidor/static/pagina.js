// multas: small enhancements on top of htmx. Every form also works without JavaScript.
"use strict";

// After the form is swapped in (htmx), move the keyboard focus where the user needs it:
// to the error summary when the case was refused, to the result otherwise.
function focarResultado() {
  const alvo = document.getElementById("resumo-erro") || document.getElementById("titulo-resultado");
  if (alvo) {
    alvo.focus({ preventScroll: false });
  }
}

document.addEventListener("htmx:afterSwap", (evento) => {
  if (evento.detail.target && evento.detail.target.id === "area") {
    focarResultado();
  }
});

// A full page load with an error (no JavaScript path, or a reload) focuses the summary too.
document.addEventListener("DOMContentLoaded", () => {
  const resumo = document.getElementById("resumo-erro");
  if (resumo) {
    resumo.focus();
  }
});

// Links in the error summary move the focus to the field, not just the scroll position.
document.addEventListener("click", (evento) => {
  const link = evento.target.closest(".resumo-erro a[href^='#']");
  if (!link) {
    return;
  }
  const campo = document.getElementById(decodeURIComponent(link.getAttribute("href").slice(1)));
  if (campo) {
    evento.preventDefault();
    campo.focus();
  }
});

// The local and conditional dates offered under a list of dates (dias_sem_expediente) are
// never applied by themselves: checking one writes its date in the field, unchecking takes it
// out (in any way it was typed: 02/05/2025, 02052025 or 2025-05-02).
function isoDe(texto) {
  const partes = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(texto) || /^(\d{2})(\d{2})(\d{4})$/.exec(texto);
  return partes ? `${partes[3]}-${partes[2].padStart(2, "0")}-${partes[1].padStart(2, "0")}` : texto;
}

function itensDe(campo) {
  return campo.value.split(/[\s;,]+/).filter((item) => item !== "");
}

document.addEventListener("change", (evento) => {
  const caixa = evento.target.closest("input[data-dia-sugerido]");
  if (!caixa) {
    return;
  }
  const campo = document.getElementById(caixa.dataset.campo);
  if (!campo) {
    return;
  }
  const itens = itensDe(campo).filter((item) => isoDe(item) !== caixa.dataset.diaSugerido);
  if (caixa.checked) {
    itens.push(caixa.value);
  }
  campo.value = itens.join("\n");
});

// Typing in the field keeps the boxes in step with it.
document.addEventListener("input", (evento) => {
  const campo = evento.target;
  if (!(campo instanceof HTMLTextAreaElement) || !campo.id) {
    return;
  }
  const dias = new Set(itensDe(campo).map(isoDe));
  for (const caixa of document.querySelectorAll("input[data-dia-sugerido]")) {
    if (caixa.dataset.campo === campo.id) {
      caixa.checked = dias.has(caixa.dataset.diaSugerido);
    }
  }
});

// A delete asks first. Without JavaScript its form leads to a confirmation page; with it, the
// same question comes in a dialog (<dialog>: focus kept inside, Esc cancels), and only "sim"
// sends the form, marked as confirmed.
document.addEventListener("submit", (evento) => {
  const formulario = evento.target.closest("form[data-confirmar]");
  const dialogo = formulario && document.getElementById(formulario.dataset.confirmar);
  if (!dialogo || typeof dialogo.showModal !== "function" || formulario.dataset.confirmado) {
    return;
  }
  evento.preventDefault();
  dialogo.addEventListener("close", () => {
    if (dialogo.returnValue !== "sim") {
      return;
    }
    const marca = document.createElement("input");
    marca.type = "hidden";
    marca.name = "confirmado";
    marca.value = "sim";
    formulario.append(marca);
    formulario.dataset.confirmado = "sim";
    formulario.requestSubmit();
  }, { once: true });
  dialogo.returnValue = "";
  dialogo.showModal();
});

// A copy button beside a read-only field (the private calendar's address): shown only with
// JavaScript and the clipboard; without them the field itself can be selected and copied.
document.addEventListener("DOMContentLoaded", () => {
  if (!navigator.clipboard) {
    return;
  }
  for (const botao of document.querySelectorAll("button[data-copiar]")) {
    botao.hidden = false;
  }
});

document.addEventListener("click", (evento) => {
  const botao = evento.target.closest("button[data-copiar]");
  if (!botao) {
    return;
  }
  const campo = document.getElementById(botao.dataset.copiar);
  const aviso = botao.parentElement.querySelector(".copiado");
  navigator.clipboard.writeText(campo.value).then(
    () => { if (aviso) { aviso.textContent = "Endereço copiado."; } },
    () => {
      campo.select();
      if (aviso) { aviso.textContent = "Não foi possível copiar: o endereço está selecionado, use Ctrl+C."; }
    },
  );
});
