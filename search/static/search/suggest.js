/* As-you-type suggestions for the admin search box (search/suggest.py through the API).
 * An ARIA 1.2 combobox: the input owns a listbox; ArrowDown/ArrowUp move through the options,
 * Enter picks the highlighted one (and searches it), Escape closes the list, Tab leaves it.
 * No external script; text is set with textContent, never as HTML. */
(function () {
  "use strict";
  var input = document.getElementById("search-q");
  var list = document.getElementById("search-suggestions");
  if (!input || !list || !input.dataset.suggestUrl) {
    return;
  }
  var timer = null;
  var active = -1;
  var latest = 0;

  function options() {
    return list.querySelectorAll("[role=option]");
  }

  function close() {
    list.hidden = true;
    list.textContent = "";
    active = -1;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function highlight(index) {
    var items = options();
    if (!items.length) {
      return;
    }
    active = (index + items.length) % items.length;
    for (var i = 0; i < items.length; i++) {
      items[i].setAttribute("aria-selected", i === active ? "true" : "false");
    }
    input.setAttribute("aria-activedescendant", items[active].id);
  }

  function pick(text) {
    input.value = text;
    close();
    if (input.form) {
      input.form.submit();
    }
  }

  function show(suggestions) {
    list.textContent = "";
    active = -1;
    if (!suggestions.length) {
      close();
      return;
    }
    suggestions.forEach(function (suggestion, index) {
      var item = document.createElement("li");
      item.id = "search-suggestion-" + index;
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", "false");
      item.dataset.kind = suggestion.kind;
      item.textContent = suggestion.text;
      item.addEventListener("mousedown", function (event) {
        event.preventDefault(); // keep the focus in the input
        pick(suggestion.text);
      });
      list.appendChild(item);
    });
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  }

  function fetchSuggestions() {
    var typed = input.value;
    if (!typed.trim() || typed.length > 100) {
      close();
      return;
    }
    var ticket = ++latest;
    var url = input.dataset.suggestUrl + "?" + new URLSearchParams({ q: typed, limit: "8" }).toString();
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : { suggestions: [] }; })
      .then(function (body) {
        if (ticket === latest) {
          show(body.suggestions || []);
        }
      })
      .catch(function () { close(); });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(fetchSuggestions, 120);
  });
  input.addEventListener("keydown", function (event) {
    if (list.hidden) {
      if (event.key === "ArrowDown" && input.value.trim()) {
        fetchSuggestions();
        event.preventDefault();
      }
      return;
    }
    if (event.key === "ArrowDown") {
      highlight(active + 1);
      event.preventDefault();
    } else if (event.key === "ArrowUp") {
      highlight(active - 1);
      event.preventDefault();
    } else if (event.key === "Enter" && active >= 0) {
      pick(options()[active].textContent);
      event.preventDefault();
    } else if (event.key === "Escape") {
      close();
      event.preventDefault();
    }
  });
  input.addEventListener("blur", function () { setTimeout(close, 100); });
})();
