// Long API names (transport_precision_recall_fscore_support_from_confusion) break after an
// underscore or before a capital of a CamelCase name, never inside a word: a <wbr> is added
// there in the page titles and the navigation's links.
document.addEventListener("DOMContentLoaded", function () {
  var selector = "h1, .bd-sidebar-primary a, .bd-toc a";
  document.querySelectorAll(selector).forEach(function (element) {
    var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    var nodes = [];
    while (walker.nextNode()) {
      if (walker.currentNode.nodeValue.length > 20) nodes.push(walker.currentNode);
    }
    nodes.forEach(function (node) {
      var parts = node.nodeValue.split(/(?<=_)|(?<=[a-z])(?=[A-Z])/);
      if (parts.length < 2) return;
      var fragment = document.createDocumentFragment();
      parts.forEach(function (part, index) {
        if (index > 0) fragment.appendChild(document.createElement("wbr"));
        fragment.appendChild(document.createTextNode(part));
      });
      node.parentNode.replaceChild(fragment, node);
    });
  });
});
