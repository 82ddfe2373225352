// The admin's entry search (autocomplete_fields, Django's select2) named by its field's label:
// select2's combobox is labelled only by the chosen value, so with none chosen it had no name
// (axe-core: aria-input-field-name). Django's autocomplete.js builds the boxes when jQuery is ready,
// which may come after this file runs: each box is labelled when it appears.
"use strict";
(() => {
  const labelBoxes = () => {
    for (const select of document.querySelectorAll("select.admin-autocomplete")) {
      const label = document.querySelector(`label[for="${select.id}"]`);
      const box = select.nextElementSibling;
      const combobox = box && box.querySelector(".select2-selection[role=combobox]");
      if (!label || !combobox || combobox.dataset.labelled) continue;
      if (!label.id) label.id = `${select.id}-label`;
      combobox.setAttribute("aria-labelledby", `${label.id} ${combobox.getAttribute("aria-labelledby") || ""}`.trim());
      combobox.dataset.labelled = "true";
      const rendered = box.querySelector(".select2-selection__rendered");
      if (rendered) rendered.setAttribute("aria-labelledby", label.id);
    }
  };
  const start = () => {
    labelBoxes();
    new MutationObserver(labelBoxes).observe(document.body, {childList: true, subtree: true});
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
