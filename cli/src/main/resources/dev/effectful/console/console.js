// Live updates: the server sends "changed" when the journal (or the store) moved; the page reloads
// itself unless the person is typing a verdict. Everything else works without this script.
(function () {
  if (!window.EventSource) {
    return;
  }
  var typing = false;
  document.addEventListener('input', function () { typing = true; });
  var source = new EventSource('/events');
  source.addEventListener('changed', function () {
    if (!typing) {
      window.location.reload();
    }
  });
})();
