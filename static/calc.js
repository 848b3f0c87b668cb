// Live recomputation for the training-memory calculator. The page works without this
// file: the form is a plain GET. With it, changing a field fetches the same page for the
// new values and swaps in its results, so charts and numbers come from one renderer.
(function () {
  "use strict";
  var form = document.getElementById("calc");
  var result = document.getElementById("result");
  if (!form || !result || !window.fetch || !window.DOMParser) {
    return;
  }
  var timer = null;
  var pending = null;

  function query() {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, key) {
      if (String(value).trim() !== "") {
        params.append(key, value);
      }
    });
    return params.toString();
  }

  function refresh() {
    var url = form.getAttribute("action") + "?" + query();
    if (pending) {
      pending.abort();
    }
    pending = new AbortController();
    fetch(url, { signal: pending.signal, headers: { Accept: "text/html" } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.getElementById("result");
        if (!fresh) {
          return;
        }
        result.replaceChildren.apply(result, Array.prototype.slice.call(fresh.childNodes));
        // Field errors live in the form: mirror them.
        form.querySelectorAll("[aria-invalid]").forEach(function (el) {
          el.removeAttribute("aria-invalid");
        });
        form.querySelectorAll(".field-error").forEach(function (el) { el.remove(); });
        page.querySelectorAll("#calc .field-error").forEach(function (error) {
          var input = form.querySelector("#" + error.id.replace(/^e-/, "f-"));
          if (input) {
            input.setAttribute("aria-invalid", "true");
            input.insertAdjacentElement("afterend", document.importNode(error, true));
          }
        });
        history.replaceState(null, "", url);
        // The language switcher follows the new values too.
        document.querySelectorAll("nav.langs a[hreflang]").forEach(function (a) {
          var target = new URL(a.href);
          target.search = "?" + query();
          a.href = target.toString();
        });
      })
      .catch(function () { /* offline or aborted: the submit button still works */ });
  }

  form.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(refresh, 350);
  });
  form.addEventListener("change", function () {
    clearTimeout(timer);
    timer = setTimeout(refresh, 50);
  });
})();
