// Modal dialogs of the table page: the focus stays inside, Esc closes.
import { html, useEffect, useRef } from "/static/vendor/preact-htm.js";
import { tilesLabel } from "../tiles.js";

function keepFocusInside(e, box) {
  const f = [...box.querySelectorAll("button, a[href], input, [tabindex='0']")];
  if (!f.length) return;
  const first = f[0];
  const last = f[f.length - 1];
  if (e.shiftKey && document.activeElement === first) { last.focus(); e.preventDefault(); }
  else if (!e.shiftKey && document.activeElement === last) { first.focus(); e.preventDefault(); }
}

export function Dialog({ id, title, children, onClose, role = "dialog", describedBy }) {
  const ref = useRef(null);
  useEffect(() => {
    const prev = document.activeElement;
    const el = ref.current && (ref.current.querySelector("[data-autofocus]") ||
      ref.current.querySelector("button"));
    if (el) el.focus();
    return () => { if (prev && prev.focus) prev.focus(); };
  }, []);
  function onKey(e) {
    if (e.key === "Escape") {
      e.stopPropagation();
      onClose();
    }
    if (e.key === "Tab") keepFocusInside(e, ref.current);
  }
  return html`<div class="overlay" onClick=${(e) => { if (e.target === e.currentTarget) onClose(); }}>
    <div class="dialog" id=${id} role=${role} aria-modal="true" aria-labelledby=${`${id}-title`}
        aria-describedby=${describedBy} ref=${ref} onKeyDown=${onKey}>
      <h2 id=${`${id}-title`}>${title}</h2>
      ${children}
    </div>
  </div>`;
}

/** Asked before an exposure that kills its rack (the action's `kills_rack`). */
export function ConfirmKill({ action, onCancel, onConfirm, withdraw, onWithdraw }) {
  const rack = action.rack + 1;
  return html`<${Dialog} id="confirm" role="alertdialog" title="Kill this rack?"
      describedBy="confirm-text" onClose=${onCancel}>
    <p id="confirm-text">${`This exposure matches no hand on the card: rack ${rack} will be dead. Expose anyway?`}</p>
    <p class="muted">${`expose ${tilesLabel(action.tiles)} on rack ${rack}`}</p>
    ${withdraw && html`<p id="confirm-withdraw-text">Nothing is exposed yet: you may still
      withdraw the claim (the tile goes back and play goes on).</p>`}
    <p class="dialog-buttons">
      <button type="button" id="confirm-cancel" data-autofocus onClick=${onCancel}>Cancel</button>
      ${withdraw && html`<button type="button" id="confirm-withdraw" onClick=${onWithdraw}>
        Withdraw the claim</button>`}
      <button type="button" id="confirm-ok" class="primary" onClick=${onConfirm}>Expose anyway</button>
    </p>
  </${Dialog}>`;
}
