/**
 * The inbox's only script and style sheet, served from the handler itself so the
 * Content-Security-Policy can forbid everything inline (`script-src 'self'`).
 */

/**
 * Progressive enhancement: the page works without it. With it, the list follows the
 * store live (server-sent events from /events reload the list fragment), and a form
 * whose button was pressed is not sent twice.
 */
export const INBOX_JS = `'use strict';
(function () {
  // Keeps one element in step with the store: refetches it when the event stream opens
  // (so nothing that changed before it did is missed) and at every "changed" event.
  function follow(element, extract) {
    if (!element || !window.EventSource || !window.fetch) return;
    var source = new EventSource(element.getAttribute('data-events'));
    var busy = false;
    var again = false;
    var waiting = false;
    // Someone typing a note or an answer here: do not replace the form under them.
    function editing() {
      var fields = element.querySelectorAll('input:not([type=hidden]), textarea');
      for (var i = 0; i < fields.length; i++) {
        if (fields[i].value !== '' || fields[i] === document.activeElement) return true;
      }
      return false;
    }
    // True (and a retry scheduled) when the element must not be replaced now.
    function postpone() {
      if (!editing()) return false;
      element.setAttribute('data-stale', 'true');
      if (!waiting) {
        waiting = true;
        setTimeout(function () { waiting = false; refresh(); }, 2000);
      }
      return true;
    }
    function refresh() {
      if (postpone()) return;
      if (busy) { again = true; return; }
      busy = true;
      fetch(element.getAttribute('data-src') + extract.query(), { credentials: 'same-origin' })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (text) {
          if (text === null || postpone()) return; // typing may have begun meanwhile
          element.removeAttribute('data-stale');
          if (extract.apply(text) === 'final') source.close();
        })
        .catch(function () {})
        .then(function () {
          busy = false;
          if (again) { again = false; refresh(); }
        });
    }
    source.addEventListener('open', refresh);
    source.addEventListener('changed', refresh);
  }

  var list = document.getElementById('inbox-list');
  follow(list, {
    query: function () { return window.location.search; },
    apply: function (text) { list.innerHTML = text; relabel(list); }
  });

  var run = document.getElementById('run-body');
  if (run && run.getAttribute('data-final') !== 'true') {
    follow(run, {
      query: function () { return ''; },
      apply: function (text) {
        var fresh = new DOMParser().parseFromString(text, 'text/html').getElementById('run-body');
        if (!fresh) return;
        run.innerHTML = fresh.innerHTML;
        relabel(run);
        run.setAttribute('data-final', fresh.getAttribute('data-final'));
        return fresh.getAttribute('data-final') === 'true' ? 'final' : undefined;
      }
    });
  }

  // "3 min ago" stays true while the page is open (the same words as pages.ts's ago()).
  function ago(iso) {
    var seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
    if (!isFinite(seconds)) return iso;
    if (seconds < 45) return 'just now';
    var minutes = Math.round(seconds / 60);
    if (minutes < 60) return minutes + ' min ago';
    var hours = Math.round(minutes / 60);
    if (hours < 36) return hours + ' h ago';
    return Math.round(hours / 24) + ' days ago';
  }
  // A fragment from the server says "just now" by the server's clock: relabelled at once
  // by this page's, so a list refreshed late never shows older words than the page did.
  function relabel(root) {
    var times = root.querySelectorAll('time[data-ago]');
    for (var i = 0; i < times.length; i++) times[i].textContent = ago(times[i].getAttribute('datetime'));
  }
  setInterval(function () { relabel(document); }, 20000);

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (form.getAttribute('method') !== 'post') return;
    if (form.getAttribute('data-sent') === 'true') { event.preventDefault(); return; }
    form.setAttribute('data-sent', 'true');
  });
})();
`;

export const INBOX_CSS = `:root { color-scheme: light dark; --fg: #1b1f24; --bg: #fff; --muted: #5b636e; --line: #d5d9de; --accent: #0b5cad; --danger: #b42318; --ok: #1a7f37; --card: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --bg: #111418; --muted: #9aa4af; --line: #30363d; --accent: #58a6ff; --danger: #f97066; --ok: #3fb950; --card: #1a1f25; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 60rem; margin: 0 auto; padding: 0.75rem 1rem; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.5rem 1rem; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.25rem; margin: 0; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.filters { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; margin: 0.75rem 0; }
.filters label, .decide label { display: flex; flex-direction: column; font-size: 0.875rem; color: var(--muted); }
input, select, textarea, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 0.4rem 0.6rem; }
textarea { width: 100%; min-height: 3rem; }
button { cursor: pointer; font-weight: 600; }
button.approve { background: var(--ok); border-color: var(--ok); color: #fff; }
button.reject { background: var(--danger); border-color: var(--danger); color: #fff; }
button.answer { background: var(--accent); border-color: var(--accent); color: #fff; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem 1rem; margin: 0 0 1rem; }
.card h2, .card h3 { margin: 0 0 0.25rem; font-size: 1.1rem; overflow-wrap: anywhere; }
.meta { color: var(--muted); font-size: 0.875rem; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0; padding: 0; list-style: none; }
.risk { font-weight: 700; }
.undeclared { font-style: italic; opacity: 0.85; }
.id { text-decoration: underline dotted; cursor: help; }
.state-hint { font-size: 0.875rem; margin: 0.5rem 0 0; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem; margin: 0.5rem 0; max-height: 24rem; overflow: auto; font-size: 0.875rem; }
details summary { cursor: pointer; color: var(--accent); }
dl.args { margin: 0.5rem 0; display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 0.75rem; } dl.args dt { font-weight: 600; font-family: ui-monospace, monospace; } dl.args dd { margin: 0; min-width: 0; }
.value { font-family: ui-monospace, monospace; font-size: 0.875rem; background: none; border: none; padding: 0; margin: 0; color: var(--fg); overflow-wrap: anywhere; white-space: pre-wrap; user-select: text; }
time[data-ago] { text-decoration: underline dotted; cursor: help; }
header .account { margin-left: auto; display: flex; gap: 0.5rem; align-items: baseline; font-size: 0.875rem; color: var(--muted); }
header .account button { font-weight: 400; padding: 0.15rem 0.5rem; }
.filters button { align-self: end; }
.decide { display: grid; gap: 0.5rem; margin-top: 0.5rem; }
.buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.notice { border-left: 4px solid var(--accent); padding: 0.5rem 0.75rem; background: var(--card); margin: 0.75rem 0; }
.notice.warn { border-color: var(--danger); }
.messages { list-style: none; padding: 0; margin: 0; }
.messages li { border-top: 1px solid var(--line); padding: 0.4rem 0; overflow-wrap: anywhere; }
.role { font-weight: 700; text-transform: capitalize; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 0.3rem 0.4rem; vertical-align: top; overflow-wrap: anywhere; }
.empty { color: var(--muted); }
[data-stale="true"]::before { content: "Newer changes are waiting: they appear when the fields here are empty again."; display: block; color: var(--muted); font-size: 0.875rem; margin-bottom: 0.5rem; }
@media (max-width: 40rem) { body { font-size: 15px; } .buttons button { flex: 1 1 auto; } }
`;
