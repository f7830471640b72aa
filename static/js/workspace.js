/* WIMS experts' workspace: keyboard shortcuts and live rule validation. Plain JavaScript, no build.
 *
 * Every page works without this file (forms post and links navigate); the script only adds keys
 * and swaps the rule page's validation part in place instead of reloading the page.
 */
(function () {
  "use strict";

  /* the keys this script handles itself, from the one key map (classifier/keys.py via the body's data-keymap);
     every other shortcut is a data-key attribute on the element it clicks */
  var keymap = { down: "j", up: "k", open: "o" };
  try { keymap = JSON.parse(document.body.dataset.keymap || "{}"); } catch (e) { /* keep the defaults */ }

  /* keys go to text fields while the expert types; checkboxes and radios keep the shortcuts */
  function typing(target) {
    if (!target.closest) return false;
    var field = target.closest("input, textarea, select, [contenteditable]");
    if (!field) return false;
    return !(field.tagName === "INPUT" && /^(checkbox|radio|button|submit)$/i.test(field.type));
  }

  /* ---------------------------------------------------------------- keyboard shortcuts */
  function activate(el) {
    if (el.dataset.focus) {
      var field = document.querySelector(el.dataset.focus);
      if (field) { field.focus(); return; }
    }
    if (el.disabled) return;
    if (el.dataset.reject) { rejectSelected(el.dataset.reject); return; }
    if (el.matches(".help-toggle")) { toggleHelp(); return; }
    el.click();
  }

  function toggleHelp() {
    var dialog = document.getElementById("shortcuts");
    if (!dialog) return;
    if (dialog.open) dialog.close(); else dialog.showModal();
  }

  function rejectSelected(kind) {
    var boxes = Array.prototype.slice.call(document.querySelectorAll("input[data-index]"));
    var chosen = boxes.filter(function (b) { return b.checked; });
    if (!chosen.length) {
      var open = boxes.filter(function (b) {
        return document.getElementById("reject-" + b.dataset.index);
      });
      if (open.length === 1) chosen = open;
    }
    if (!chosen.length) { flash("Select the suggestion to reject first (keys 1–9)."); return; }
    var form = document.getElementById("reject-" + chosen[0].dataset.index);
    if (!form) { flash("That folder was not given by a rule: move it instead (m)."); return; }
    form.querySelector('button[value="' + kind + '"]').click();
  }

  function flash(text) {
    var list = document.querySelector(".messages");
    if (!list) {
      list = document.createElement("ul");
      list.className = "messages";
      document.querySelector("main").prepend(list);
    }
    var item = document.createElement("li");
    item.className = "error";
    item.textContent = text;
    list.appendChild(item);
  }

  /* inbox: j / k move the cursor row, o / Enter open it */
  var rows = Array.prototype.slice.call(document.querySelectorAll("[data-keyboard-list] [data-row]"));
  var current = -1;
  function moveRow(step) {
    if (!rows.length) return;
    if (current >= 0) rows[current].classList.remove("current");
    current = Math.max(0, Math.min(rows.length - 1, current + step));
    rows[current].classList.add("current");
    rows[current].scrollIntoView({ block: "nearest" });
  }

  /* inbox: tick rows for the bulk actions (click, shift-click for a range, the select key on the chosen row) */
  var picks = rows.map(function (row) { return row.querySelector('input[name="article"]'); }).filter(Boolean);
  var lastPick = -1;
  function countPicks() {
    var n = picks.filter(function (box) { return box.checked; }).length;
    var label = document.getElementById("bulk-count");
    if (label) label.textContent = n + " selected";
    picks.forEach(function (box) { box.closest("tr").classList.toggle("selected", box.checked); });
    var all = document.getElementById("select-page");
    if (all) { all.checked = n > 0 && n === picks.length; all.indeterminate = n > 0 && n < picks.length; }
  }
  function togglePick(i, shift) {
    if (shift && lastPick >= 0) { // the range from the last ticked box takes this box's new state
      for (var k = Math.min(i, lastPick); k <= Math.max(i, lastPick); k++) picks[k].checked = picks[i].checked;
    }
    lastPick = i;
    countPicks();
  }
  if (picks.length) {
    var selectPage = document.getElementById("select-page");
    if (selectPage) {
      selectPage.hidden = false;
      selectPage.addEventListener("change", function () {
        picks.forEach(function (box) { box.checked = selectPage.checked; });
        countPicks();
      });
    }
    document.querySelector("[data-keyboard-list]").addEventListener("click", function (event) {
      var i = picks.indexOf(event.target);
      if (i >= 0) togglePick(i, event.shiftKey);
    });
    countPicks();
  }

  /* the page's submit button (the rule's commit, the filter view's labels): pressed, or, disabled, says why */
  function pressSubmit() {
    var submit = document.getElementById("commit") || document.getElementById("save-labels");
    if (!submit) return;
    // a disabled button says nothing when pressed: say why (its title) rather than ignore the keys
    if (submit.disabled) flash("Not yet: " + (submit.title || "the form is not complete") + ".");
    else submit.click();
  }

  function pressWhenChecked() {
    var rule = document.getElementById("rule-form");
    if (rule && rule.dataset.stale === "1") document.addEventListener("wims:validated", pressWhenChecked, { once: true });
    else pressSubmit();
  }

  document.addEventListener("keydown", function (event) {
    /* the move form: m focuses its folder picker, and Enter there moves (a select alone would not submit) */
    if (event.key === "Enter" && event.target.matches && event.target.matches(".move-form select")) {
      event.preventDefault();
      event.target.form.requestSubmit();
      return;
    }
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      if (!(document.getElementById("commit") || document.getElementById("save-labels"))) return;
      event.preventDefault();
      // the rule page's check of the draft just changed is on its way: its answer decides, not the button it
      // replaces (a word picked and Ctrl+Enter at once said "decide on every cornerstone case first" of cases
      // the word had just left unchanged)
      pressWhenChecked();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var key = event.key;
    if (rows.length && (key === keymap.down || key === keymap.up)) {
      event.preventDefault();
      moveRow(key === keymap.down ? 1 : -1);
      return;
    }
    if (picks.length && key === keymap.select) {
      event.preventDefault();
      if (current < 0) moveRow(1);
      picks[current].checked = !picks[current].checked;
      togglePick(current, false);
      return;
    }
    if (rows.length && (key === keymap.open || key === "Enter") && current >= 0) {
      event.preventDefault();
      window.location.href = rows[current].dataset.href;
      return;
    }
    if (/^[1-9]$/.test(key)) {
      var box = document.querySelector('input[data-index="' + key + '"]');
      if (box) { event.preventDefault(); box.checked = !box.checked; box.focus(); }
      return;
    }
    var target = document.querySelector('[data-key="' + CSS.escape(key) + '"]');
    if (target) { event.preventDefault(); activate(target); }
  });

  /* ---------------------------------------------------------------- rule page: live validation */
  var form = document.getElementById("rule-form");
  if (form && form.dataset.checkUrl && window.fetch) {
    document.documentElement.classList.add("js");
    var box = document.getElementById("validation");
    var pending = null;
    var seq = 0;

    var syncPickers = function () {
      var kind = (form.querySelector('input[name="kind"]:checked') || {}).value;
      form.querySelector(".folder-pick").hidden = kind === "stop";
      form.querySelector(".wrong-pick").hidden = kind === "new";
      // a stopping rule gives no folder: creating one does not apply to it
      var create = document.getElementById("folder-create");
      if (create) create.hidden = kind === "stop";
      var checked = form.querySelector('input[name="kind"]:checked');
      var crumb = document.getElementById("rule-kind-crumb");
      if (checked && crumb) crumb.textContent = checked.dataset.name;
    };

    var refresh = function (extra) {
      form.dataset.stale = "1";
      var data = new FormData(form);
      if (extra) data.append(extra.name, extra.value);
      var mine = ++seq;
      box.classList.add("busy");
      // the CSRF token travels in the form data (csrfmiddlewaretoken) and in the header
      return fetch(form.dataset.checkUrl, {
        method: "POST",
        body: data,
        credentials: "same-origin",
        headers: { "X-CSRFToken": data.get("csrfmiddlewaretoken"), "X-Requested-With": "fetch" },
      }).then(function (response) {
        if (!response.ok) throw new Error("validation failed: HTTP " + response.status);
        return response.text();
      }).then(function (html) {
        if (mine !== seq) return; // a newer request is on its way
        // keep the cases the expert has expanded (read now: they may have opened one while waiting)
        var open = Array.prototype.map.call(box.querySelectorAll("details[open][data-case]"), function (d) {
          return d.dataset.case;
        });
        // keep the word search as the expert is typing it (its text, focus and caret)
        var search = document.getElementById("word-search");
        var typed = search ? { value: search.value, focused: document.activeElement === search,
          start: search.selectionStart, end: search.selectionEnd } : null;
        box.innerHTML = html;
        open.forEach(function (id) {
          var d = box.querySelector('details[data-case="' + id + '"]');
          if (d) d.open = true;
        });
        var fresh = document.getElementById("word-search");
        if (fresh && typed) {
          var retyped = fresh.value !== typed.value;
          fresh.value = typed.value;
          if (typed.focused) { fresh.focus(); fresh.setSelectionRange(typed.start, typed.end); }
          if (retyped) { clearTimeout(pending); pending = setTimeout(refresh, 200); }
        }
        box.classList.remove("busy");
        box.dataset.version = String(mine);
        if (!retyped) form.dataset.stale = "0";
        document.dispatchEvent(new CustomEvent("wims:validated"));
      }).catch(function (error) {
        box.classList.remove("busy");
        form.dataset.stale = "0";
        flash(error.message);
      });
    };

    form.addEventListener("change", function (event) {
      if (event.target.name === "kind") syncPickers();
      if (event.target.name === "q") return; // searched as it is typed (below)
      // an answer on its way is for the draft before this change: drawn now, it would untick what was just ticked
      seq++;
      form.dataset.stale = "1";
      clearTimeout(pending);
      pending = setTimeout(refresh, 120);
    });
    /* the word search asks the server for the matching words of both difference lists as the expert types */
    form.addEventListener("input", function (event) {
      if (event.target.name !== "q") return;
      seq++;
      form.dataset.stale = "1";
      clearTimeout(pending);
      pending = setTimeout(refresh, 200);
    });
    form.addEventListener("keydown", function (event) {
      if (event.target.name === "q" && event.key === "Enter") { // Enter searches, it never commits
        event.preventDefault();
        clearTimeout(pending);
        refresh();
      }
    });
    form.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-refresh]");
      if (!button) return;
      event.preventDefault();
      refresh({ name: button.name, value: button.value });
    });
    var noscript = box.querySelectorAll(".noscript-only");
    Array.prototype.forEach.call(noscript, function (el) { el.hidden = true; });
    document.addEventListener("wims:validated", function () {
      Array.prototype.forEach.call(box.querySelectorAll(".noscript-only"), function (el) { el.hidden = true; });
    });

    /* creating a folder comes back to this draft with the new folder chosen */
    var create = document.getElementById("folder-create");
    if (create) {
      create.addEventListener("submit", function () {
        var params = new URLSearchParams(new FormData(form));
        params.delete("csrfmiddlewaretoken");
        params.delete("folder");
        params.delete("affected");
        create.querySelector('input[name="next"]').value =
          form.getAttribute("action") + "?" + params.toString() + "&folder={folder}";
      });
    }

    /* The draft keeps its state: in the URL (a reload or the back button brings it back) and in this browser's
       storage, per user, article and change (coming back later from another page brings it back too). Leaving
       asks first only when that would lose work: conditions or decisions not committed that the storage does not
       hold as the form has them (no storage, or a change not kept yet). A reload or a visit elsewhere loses
       nothing stored, and beforeunload cannot tell a reload from leaving, so a stored draft asks nothing. */
    var DRAFT = ["kind", "folder", "wrong", "c", "x", "sel", "ok", "keep", "affected"];
    var WORK = ["c", "x", "sel", "ok", "keep"]; // what the expert did beyond choosing the folders
    // where the article was opened from: the inbox's view, Corrections, or search results (search, rank)
    var CAME_FROM = ["view", "origin", "search", "rank"];
    var userArticleKey = "wims:rule-draft:" + form.dataset.draftKey;
    /* One stored draft per change, not per article: a stopping rule started on an article and then a new rule
       for it (a live trial) each keep their own. The change is the kind, and for a correction the wrong folder
       it corrects; a new rule's folder is part of its draft (chosen on the page, which opens without one). */
    var keyOf = function (params) {
      var kind = params.get("kind") || "";
      var wrong = kind === "new" ? "" : params.get("wrong") || "";
      return userArticleKey + ":" + kind + (wrong ? ":" + wrong : "");
    };
    var storeKey = function () { return keyOf(new FormData(form)); };
    var leaving = false;
    var draftOf = function (params, names) {
      var out = new URLSearchParams();
      params.forEach(function (value, name) { if (names.indexOf(name) >= 0 && value !== "") out.append(name, value); });
      return out;
    };
    var hasWork = function (params) { return WORK.some(function (name) { return params.has(name); }); };
    var storage = function () { try { return window.localStorage; } catch (e) { return null; } };
    var keepDraft = function (event) {
      var draft = draftOf(new FormData(form), DRAFT);
      var url = new URLSearchParams(draft); // then the view the article was opened in, as the links put it
      draftOf(new URLSearchParams(window.location.search), CAME_FROM).forEach(function (value, name) {
        url.append(name, value);
      });
      window.history.replaceState(window.history.state, "", window.location.pathname + "?" + url.toString());
      var store = storage();
      if (!store) return;
      // opening the page keeps a stored draft it did not restore (another kind); the expert's unticking forgets it
      if (hasWork(draft)) store.setItem(keyOf(draft), draft.toString()); else if (event) store.removeItem(keyOf(draft));
    };
    var draftStored = function () { // the form's draft is the one the storage would bring back
      var store = storage();
      return !!store && store.getItem(storeKey()) === draftOf(new FormData(form), DRAFT).toString();
    };
    var moveOldDraft = function (store) { // a draft stored per article (before drafts were per change) keeps
      var old = store.getItem(userArticleKey);
      if (old === null) return;
      var key = keyOf(new URLSearchParams(old));
      if (store.getItem(key) === null) store.setItem(key, old);
      store.removeItem(userArticleKey);
    };
    var restoreDraft = function () { // true: the page is being replaced by the stored draft
      var here = new URLSearchParams(window.location.search);
      var store = storage();
      if (store) moveOldDraft(store);
      // the change the page opened on, as the server drew it (a kind by default, the one wrong folder waiting)
      var saved = store && store.getItem(storeKey());
      if (!saved || hasWork(here)) return false;
      saved = new URLSearchParams(saved);
      // a draft for another change (say, correcting another folder) is not this one
      var clash = ["kind", "folder", "wrong"].some(function (name) {
        return here.get(name) && saved.get(name) && here.get(name) !== saved.get(name);
      });
      if (clash) return false;
      var url = new URLSearchParams(saved);
      draftOf(here, CAME_FROM).forEach(function (value, name) { url.append(name, value); });
      window.location.replace(window.location.pathname + "?" + url.toString());
      return true;
    };
    if (!restoreDraft()) {
      keepDraft();
      document.addEventListener("wims:validated", keepDraft);
      form.addEventListener("change", function (event) { if (event.target.name !== "q") keepDraft(event); });
      form.addEventListener("submit", function (event) {
        leaving = true;
        var store = storage();
        if (store && event.submitter && event.submitter.id === "commit") store.removeItem(storeKey());
      });
      if (create) create.addEventListener("submit", function () { leaving = true; });
      window.addEventListener("beforeunload", function (event) {
        if (leaving || !hasWork(new FormData(form)) || draftStored()) return;
        event.preventDefault();
        event.returnValue = ""; // the browser asks in its own words
      });
    }
  }

  /* ---------------------------------------------------------------- filter view: marking mode */
  var labels = document.getElementById("label-form");
  if (labels) {
    labels.addEventListener("click", function (event) {
      if (event.target.closest("input, label")) return;
      var item = event.target.closest("li[data-phrase]");
      if (!item) return;
      var radios = item.querySelectorAll('input[type="radio"]');
      var core = radios[0].checked;
      radios[core ? 1 : 0].checked = true;
      item.classList.toggle("mark-core", !core);
      item.classList.toggle("mark-noise", core);
    });
    labels.addEventListener("change", function (event) {
      var item = event.target.closest("li[data-phrase]");
      if (!item) return;
      var core = event.target.value === "core";
      item.classList.toggle("mark-core", core);
      item.classList.toggle("mark-noise", !core);
    });
  }
})();
