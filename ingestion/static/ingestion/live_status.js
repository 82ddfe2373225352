// Live status (templates/admin/ingestion/status.html, _entry_chunks.html): a box with
// data-live-url holds a part whose data-pending counts the work left; while it is above zero,
// the part is fetched again every few seconds (an HTML fragment, not the page) and swapped in.
// It stops when nothing is pending, when the tab is hidden (and resumes when shown), and after
// a failed fetch, which it says in the box's data-live-state.
"use strict";

(function () {
  const EVERY_MS = 2500;

  function watch(box) {
    let timer = null;
    const pending = () => Number(box.querySelector("[data-pending]")?.dataset.pending || 0);

    async function refresh() {
      timer = null;
      try {
        const response = await fetch(box.dataset.liveUrl, { credentials: "same-origin", headers: { Accept: "text/html" } });
        if (!response.ok) throw new Error(String(response.status));
        const html = await response.text();
        const parsed = new DOMParser().parseFromString(html, "text/html");
        const fresh = parsed.body.firstElementChild;
        const current = box.querySelector("[data-pending]");
        if (fresh && current) current.replaceWith(document.importNode(fresh, true));
        box.dataset.liveState = "ok";
        box.dataset.liveRefreshes = String(Number(box.dataset.liveRefreshes || 0) + 1);
      } catch (error) {
        box.dataset.liveState = "failed";
        return;
      }
      schedule();
    }

    function schedule() {
      if (timer === null && !document.hidden && pending() > 0) timer = setTimeout(refresh, EVERY_MS);
      else if (pending() === 0) box.dataset.liveState = "done";
    }

    document.addEventListener("visibilitychange", () => {
      if (document.hidden && timer !== null) { clearTimeout(timer); timer = null; } else schedule();
    });
    schedule();
  }

  function start() {
    document.querySelectorAll("[data-live-url]").forEach(watch);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
