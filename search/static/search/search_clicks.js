/* The admin search page reports which result was opened, for the workspace's search insights
   (search/insights_admin.py, search_click). A click (or middle click) on a result's link sends
   {search_id, entry_id or chunk_id, position} with navigator.sendBeacon, which survives the
   navigation the click starts; the CSRF token travels in the form data. No other script. */
(function () {
  "use strict";

  function report(event) {
    var link = event.target.closest("li.search-hit a[href]");
    if (!link) {
      return;
    }
    var results = document.getElementById("search-results");
    var hit = link.closest("li.search-hit");
    if (!results || !results.dataset.searchId || !hit) {
      return;
    }
    var form = new FormData();
    form.append("csrfmiddlewaretoken", results.dataset.csrf);
    form.append("search_id", results.dataset.searchId);
    form.append("position", hit.dataset.position);
    if (hit.dataset.chunkId) {
      form.append("chunk_id", hit.dataset.chunkId);
    } else {
      form.append("entry_id", hit.dataset.entryId);
    }
    if (!(navigator.sendBeacon && navigator.sendBeacon(results.dataset.clicksUrl, form))) {
      fetch(results.dataset.clicksUrl, {method: "POST", body: form, credentials: "same-origin", keepalive: true});
    }
  }

  document.addEventListener("click", report);
  document.addEventListener("auxclick", report);
})();
