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
