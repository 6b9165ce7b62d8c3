// Live updates: the server sends "changed" when the journal (or the store) moved. A list reloads itself;
// a page with a verdict form never does (a half-typed note must not vanish): it says that something
// changed and offers the reload. Everything else works without this script.
(function () {
  // a page without a version is the answer to a form: reloading it would send the form again
  if (!window.EventSource || !document.body.dataset.version) {
    return;
  }
  // the version this page shows: a change made while it loaded is announced at once
  var source = new EventSource('/events?since=' + encodeURIComponent(document.body.dataset.version || ''));
  source.addEventListener('changed', function () {
    if (!document.querySelector('form.verdict')) {
      window.location.reload();
      return;
    }
    if (document.getElementById('changed')) {
      return;
    }
    var note = document.createElement('p');
    note.id = 'changed';
    note.className = 'note';
    note.textContent = 'Something changed since this page was loaded. ';
    var link = document.createElement('a');
    link.href = window.location.pathname + window.location.search;
    link.textContent = 'Reload';
    note.appendChild(link);
    document.querySelector('main').prepend(note);
  });
})();
