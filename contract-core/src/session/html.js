(function () {
  "use strict";
  var source = document.getElementById("session-data");
  var panel = document.getElementById("panel");
  if (!source || !panel) {
    return;
  }
  var data = JSON.parse(source.textContent);
  var steps = data.steps || [];
  var tones = {
    applied: "green", duplicate: "green",
    "not-ready": "grey", "artifact-unavailable": "grey"
  };

  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) {
      el.className = className;
    }
    if (text !== undefined && text !== null) {
      el.textContent = String(text);
    }
    return el;
  }

  function code(text, className) {
    return element("code", className, text);
  }

  function term(list, name, value) {
    if (value === undefined || value === null || value === "") {
      return;
    }
    list.appendChild(element("dt", null, name));
    list.appendChild(element("dd", null, value));
  }

  function show(index) {
    var step = steps[index];
    if (!step) {
      return;
    }
    while (panel.firstChild) {
      panel.removeChild(panel.firstChild);
    }
    var title = element("h2", null, "step " + (index + 1) + " · ");
    title.appendChild(element("span", "tone-" + (tones[step.outcome] || "red"), step.outcome));
    panel.appendChild(title);
    panel.appendChild(element("p", "edge-name",
      (step.from === null ? "?" : step.from) + " → " + (step.to === null ? "?" : step.to)));

    var facts = element("dl");
    term(facts, "contract", step.contract);
    term(facts, "handoff", step.handoffId);
    term(facts, "context", step.contextId);
    var attempt = step.attempt === null ? "" : String(step.attempt);
    if (step.relation === "explicit") {
      attempt += (attempt ? ", " : "") + "retry of " + step.retryOf;
    } else if (step.relation === "related") {
      attempt += (attempt ? ", " : "") + "related (names no retryOf)";
    }
    term(facts, "attempt", attempt);
    term(facts, "ledger", step.ledger);
    if (step.count > 1) {
      term(facts, "seen", step.count + " times");
    }
    panel.appendChild(facts);

    panel.appendChild(element("h3", null, "presence"));
    var received = element("p", null, "receivedFields: ");
    if (step.receivedFields.length === 0) {
      received.appendChild(element("span", "none", "none"));
    }
    step.receivedFields.forEach(function (field, i) {
      if (i > 0) {
        received.appendChild(document.createTextNode(", "));
      }
      received.appendChild(code(field));
    });
    panel.appendChild(received);
    var missing = element("ul", "missing");
    step.missingFields.forEach(function (field) {
      var item = element("li");
      item.appendChild(code(field + "Present: false"));
      var cause = step.causes[field];
      if (cause !== undefined) {
        item.appendChild(document.createTextNode(" "));
        item.appendChild(element("span", "cause", "(" + cause + ")"));
      }
      missing.appendChild(item);
    });
    Object.keys(step.causes).forEach(function (field) {
      if (step.missingFields.indexOf(field) < 0) {
        var item = element("li");
        item.appendChild(code(field));
        item.appendChild(document.createTextNode(" "));
        item.appendChild(element("span", "cause", step.causes[field]));
        missing.appendChild(item);
      }
    });
    if (missing.firstChild) {
      panel.appendChild(missing);
    } else {
      panel.appendChild(element("p", "none", "no field missing"));
    }

    if (step.spent) {
      var spent = step.spent;
      var counts = element("dl", "facts");
      term(counts, "model calls", String(spent.modelCalls));
      term(counts, "tool calls", String(spent.toolCalls));
      term(counts, "tokens", String(spent.tokens));
      if (spent.callsRefused > 0) {
        term(counts, "calls refused (budget)", String(spent.callsRefused));
      }
      if (spent.actionsRefused > 0) {
        term(counts, "actions refused (scope)", String(spent.actionsRefused));
      }
      panel.appendChild(element("h3", null, "spent before this handoff"));
      panel.appendChild(counts);
    }

    panel.appendChild(element("h3", null, "findings"));
    if (step.problems.length === 0) {
      panel.appendChild(element("p", "none", "no problems"));
    } else {
      var problems = element("ul", "problems");
      step.problems.forEach(function (problem) {
        var item = element("li");
        item.appendChild(code(problem.pointer === "" ? "(the envelope)" : problem.pointer));
        item.appendChild(document.createTextNode(" "));
        item.appendChild(element("span", "kind", problem.kind));
        problems.appendChild(item);
      });
      panel.appendChild(problems);
    }

    panel.setAttribute("data-shown", String(index));
    var marked = document.querySelectorAll(".edge[data-step], .step[data-step]");
    for (var i = 0; i < marked.length; i++) {
      var selected = marked[i].getAttribute("data-step") === String(index);
      marked[i].classList.toggle("selected", selected);
      marked[i].setAttribute("aria-pressed", selected ? "true" : "false");
    }
  }

  function stepOf(target) {
    var el = target && target.closest ? target.closest(".edge[data-step], .step[data-step]") : null;
    return el ? Number(el.getAttribute("data-step")) : -1;
  }

  document.addEventListener("click", function (event) {
    var index = stepOf(event.target);
    if (index >= 0) {
      show(index);
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") {
      return;
    }
    var index = stepOf(event.target);
    if (index >= 0) {
      event.preventDefault();
      show(index);
    }
  });

  // On load: the step the address names (#step-N, from 1), else the first red edge's.
  var named = /^#step-([0-9]+)$/.exec(window.location.hash);
  var first = null;
  if (named) {
    first = document.querySelector('.edge[data-step="' + (Number(named[1]) - 1) + '"]');
  }
  first = first || document.querySelector(".edge.red") || document.querySelector(".edge");
  if (first) {
    first.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  }
})();
