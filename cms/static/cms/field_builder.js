// The content type form's field builder (templates/admin/cms/contenttype/change_form.html).
// It reads and writes the fields' JSON box (#id_fields), which stays as import and export; the
// server validates what is saved (cms/schemas.py). Its words and the field kinds come from
// cms/admin/field_builder.py through a json_script block, so nothing here needs translating.
"use strict";

(function () {
  const configNode = document.getElementById("field-builder-config");
  const box = document.getElementById("id_fields");
  if (!configNode || !box) return;
  const config = JSON.parse(configNode.textContent);
  const words = config.words;
  const kinds = Object.fromEntries(config.types.map((t) => [t.value, t]));
  const semanticBox = document.getElementById("id_semantic_search_enabled");

  function parse() {
    try {
      const value = JSON.parse(box.value || "[]");
      return Array.isArray(value) ? value : null;
    } catch (error) {
      return null;
    }
  }

  let fields = parse() || [];
  const originalId = new WeakMap(fields.map((f) => [f, f.id]));
  // Entries holding a value under each saved id (cms.selectors.content_type_field_usage): a
  // rename warns only for those. Once the type has an entry, saved ids stop following labels.
  const inUse = config.fields_in_use || {};
  const hasEntries = !!config.has_entries;
  // Fields whose id follows their label (a slug of it): new ones, and saved ones while no entry
  // exists whose id still reads as their label. Typing in the id box stops it.
  const autoIds = new WeakSet();

  function make(tag, attrs, text) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([key, value]) => {
      if (value === true) node.setAttribute(key, "");
      else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const builder = make("section", { class: "field-builder", id: "field-builder", "aria-labelledby": "field-builder-title" });
  builder.append(make("h3", { id: "field-builder-title" }, words.title), make("p", { class: "help" }, words.intro));
  const warning = make("p", { class: "field-builder-warning", id: "field-builder-json-invalid", role: "status", hidden: true }, words.json_invalid);
  const list = make("ol", { class: "field-builder-list", id: "field-builder-list" });
  const add = make("button", { type: "button", class: "button", id: "field-builder-add" }, words.add);
  builder.append(warning, list, add);
  const row = box.closest(".form-row") || box.parentNode;
  row.parentNode.insertBefore(builder, row);
  const boxLabel = row.querySelector("label[for=id_fields]");
  if (boxLabel) boxLabel.textContent = words.json_label + ":";

  function write() {
    box.value = JSON.stringify(fields, null, 2);
  }

  function facetCount(except) {
    return fields.filter((f) => f !== except && f.facet).length;
  }

  function slug(text) {
    const base = text.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").replace(/^[^a-z]+/, "");
    return base.slice(0, 64);
  }

  // Unique within the type: `question`, then `question_2`; `self` (the field being named) aside.
  function uniqueId(base, self) {
    const root = base || "field";
    let id = root;
    let n = 2;
    while (fields.some((f) => f !== self && f.id === id)) id = `${root}_${n++}`.slice(0, 64);
    return id;
  }

  function followsLabel(field) {
    const base = slug(field.label || "") || "field";
    return field.id === base || new RegExp(`^${base}_[0-9]+$`).test(field.id || "");
  }
  if (!hasEntries) fields.filter(followsLabel).forEach((f) => autoIds.add(f));

  function fieldRow(field, index) {
    const kind = kinds[field.type] || kinds.text;
    const key = `fb-${index}`;
    const item = make("li", { class: "field-builder-field", "data-field": field.id, "data-type": field.type });
    const head = make("div", { class: "fb-line" });

    const label = make("input", { type: "text", id: `${key}-label`, value: field.label || "", "data-part": "label" });
    label.addEventListener("input", () => {
      field.label = label.value;
      if (autoIds.has(field)) {
        field.id = uniqueId(slug(label.value), field);
        id.value = field.id;
        item.dataset.field = field.id;
        showRename();
      }
      write();
    });
    const id = make("input", { type: "text", id: `${key}-id`, value: field.id || "", "data-part": "id", spellcheck: "false", autocapitalize: "off" });
    const renameNote = make("p", { class: "fb-rename help", id: `${key}-rename`, hidden: true, "aria-live": "polite" });
    function showRename() {
      const old = originalId.get(field);
      renameNote.hidden = !(old && inUse[old] && old !== field.id);
      renameNote.textContent = words.rename.replace("%(old)s", old || "");
    }
    id.addEventListener("input", () => {
      field.id = id.value;
      item.dataset.field = field.id;
      if (id.value) autoIds.delete(field);
      else autoIds.add(field);  // emptied: it follows the label again
      showRename();
      write();
    });
    showRename();
    const type = make("select", { id: `${key}-type`, "data-part": "type", "aria-describedby": `${key}-type-help` });
    config.types.forEach((t) => type.append(make("option", { value: t.value, selected: t.value === field.type }, t.label)));
    type.addEventListener("change", () => {
      field.type = type.value;
      if (!kinds[field.type].facet) delete field.facet;
      if (field.type !== "number") delete field.facet_ranges;
      render();
      document.getElementById(`${key}-type`).focus();
    });
    [[label, words.label], [id, words.id], [type, words.type]].forEach(([input, text]) => {
      const cell = make("span", { class: "fb-cell" });
      cell.append(make("label", { for: input.id }, text), input);
      head.append(cell);
    });
    item.append(head, make("p", { class: "help fb-type-help", id: `${key}-type-help` }, kind.help), renameNote);

    const toggles = make("div", { class: "fb-line fb-toggles" });
    const required = make("input", { type: "checkbox", id: `${key}-required`, "data-part": "required", checked: !!field.required });
    required.addEventListener("change", () => { field.required = required.checked; write(); });
    const requiredCell = make("span", { class: "fb-toggle" });
    requiredCell.append(required, make("label", { for: required.id, class: "vCheckboxLabel" }, words.required));

    const refusedReason = !kind.facet ? words.facet_type_refused
      : (!field.facet && facetCount(field) >= config.max_facets ? words.facet_limit_refused : "");
    const facet = make("input", { type: "checkbox", id: `${key}-facet`, "data-part": "facet", checked: !!field.facet,
      disabled: !!refusedReason, "aria-describedby": refusedReason ? `${key}-facet-refused` : null });
    facet.addEventListener("change", () => {
      field.facet = facet.checked;
      if (!facet.checked) { delete field.facet; delete field.facet_ranges; }
      render();
      document.getElementById(`${key}-facet`).focus();
    });
    const facetCell = make("span", { class: "fb-toggle" });
    facetCell.append(facet, make("label", { for: facet.id, class: "vCheckboxLabel" }, words.facet));
    toggles.append(requiredCell, facetCell);
    item.append(toggles);
    if (refusedReason) item.append(make("p", { class: "fb-refused", id: `${key}-facet-refused`, "data-refused": "facet" }, refusedReason));
    if (field.facet && field.type === "number") {
      const ranges = make("input", { type: "text", id: `${key}-ranges`, "data-part": "ranges", inputmode: "decimal",
        value: (field.facet_ranges || []).join(", ") });
      ranges.addEventListener("input", () => {
        field.facet_ranges = ranges.value.split(",").map((x) => x.trim()).filter((x) => x !== "").map((x) => (isNaN(Number(x)) ? x : Number(x)));
        write();
      });
      const cell = make("span", { class: "fb-cell fb-ranges" });
      cell.append(make("label", { for: ranges.id }, words.ranges), ranges);
      item.append(cell);
    }
    const semanticOn = !semanticBox || semanticBox.checked;
    item.append(make("p", { class: "help fb-search", "data-searchable": kind.fulltext ? "yes" : "no" },
      `${kind.fulltext ? words.searchable_yes : words.searchable_no} ${kind.semantic ? (semanticOn ? words.semantic_yes : words.semantic_off) : words.semantic_no}`));

    const actions = make("div", { class: "fb-actions" });
    const up = make("button", { type: "button", class: "button", "data-action": "up", disabled: index === 0, "aria-label": `${words.up}: ${field.label || field.id}` }, "↑");
    const down = make("button", { type: "button", class: "button", "data-action": "down", disabled: index === fields.length - 1, "aria-label": `${words.down}: ${field.label || field.id}` }, "↓");
    const remove = make("button", { type: "button", class: "button fb-remove", "data-action": "remove" }, words.remove);
    up.addEventListener("click", () => { move(index, -1); });
    down.addEventListener("click", () => { move(index, 1); });
    remove.addEventListener("click", () => { fields.splice(index, 1); render(); write(); add.focus(); });
    actions.append(up, down, remove);
    item.append(actions);
    return item;
  }

  function move(index, by) {
    const [field] = fields.splice(index, 1);
    fields.splice(index + by, 0, field);
    render();
    write();
    const target = list.children[index + by].querySelector(`[data-action=${by < 0 ? "up" : "down"}]`);
    (target && !target.disabled ? target : list.children[index + by].querySelector("[data-part=label]")).focus();
  }

  function render() {
    list.replaceChildren(...fields.map(fieldRow));
    if (!fields.length) list.append(make("li", { class: "help fb-empty" }, words.empty));
    write();
  }

  add.addEventListener("click", () => {
    const field = { id: uniqueId("field"), label: "", type: "text", required: false };
    autoIds.add(field);
    fields.push(field);
    render();
    list.lastElementChild.querySelector("[data-part=label]").focus();
  });
  box.addEventListener("input", () => {
    const parsed = parse();
    warning.hidden = parsed !== null;
    if (parsed !== null) {
      fields = parsed;
      list.replaceChildren(...fields.map(fieldRow));
    }
  });
  if (semanticBox) semanticBox.addEventListener("change", () => { list.replaceChildren(...fields.map(fieldRow)); });
  if (parse() === null) warning.hidden = false;
  else render();
})();
