/**
 * The view side of the MCP Apps protocol (`io.modelcontextprotocol/ui`, revision 2026-01-26), as
 * a script every view document embeds: JSON-RPC 2.0 objects over `window.postMessage` with the
 * host (the parent frame). The extension's own `App` class bundles to ~650 KB with its
 * dependencies; the few messages a read-only view needs fit in a few kilobytes:
 *
 * - view -> host: `ui/initialize` (request), `ui/notifications/initialized`,
 *   `ui/notifications/size-changed` (the content's size, whenever it changes), `tools/call`
 *   (request; the host forwards it to this server), `notifications/message` (a view error,
 *   logged by the host);
 * - host -> view: `ui/notifications/tool-input`, `ui/notifications/tool-result`,
 *   `ui/notifications/tool-cancelled`, `ui/notifications/host-context-changed` (theme and style
 *   variables), and the requests `ping` and `ui/resource-teardown`, answered with `{}`.
 *
 * It defines one global, `PrioryView`: `start(name, handlers)` (`input`, `result`, `cancelled`,
 * and `context`, told every host context: theme, locale...), `callTool(name, args)`,
 * `canCallTools()`, `resultData(result)`, `reportError(error)`, `measure()`.
 *
 * Written as plain ES2017 in a string (the view runs in the host's browser, not in Deno): no
 * template literals and no backslash escapes, so it survives `String.raw` unchanged.
 *
 * @module
 */

/** The protocol client script. */
export const VIEW_CLIENT_JS = String.raw`
var PrioryView = (function () {
  "use strict";
  var PROTOCOL_VERSION = "2026-01-26";
  var nextId = 1;
  var pending = new Map();
  var listeners = {};
  var hostCapabilities = {};
  var answers = {
    "ping": function () { return {}; },
    "ui/resource-teardown": function () { return {}; }
  };

  function post(message) { window.parent.postMessage(message, "*"); }

  function request(method, params) {
    var id = nextId++;
    return new Promise(function (resolve, reject) {
      pending.set(id, { resolve: resolve, reject: reject });
      post({ jsonrpc: "2.0", id: id, method: method, params: params || {} });
    });
  }

  function notify(method, params) {
    post({ jsonrpc: "2.0", method: method, params: params || {} });
  }

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) return;
    var message = event.data;
    if (!message || typeof message !== "object" || message.jsonrpc !== "2.0") return;
    if (typeof message.method !== "string") {
      var waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message || "the host refused"));
      else waiting.resolve(message.result);
      return;
    }
    if (message.id !== undefined && message.id !== null) {
      var answer = answers[message.method];
      if (answer) post({ jsonrpc: "2.0", id: message.id, result: answer(message.params || {}) });
      else post({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found: " + message.method } });
      return;
    }
    var listener = listeners[message.method];
    if (listener) guarded(listener)(message.params || {});
  });

  function reportError(error) {
    var text = error && error.message ? error.message : String(error);
    notify("notifications/message", { level: "error", logger: "priory-view", data: text });
  }

  function guarded(fn) {
    return function (value) {
      try { return fn(value); } catch (error) { reportError(error); }
    };
  }

  window.addEventListener("error", function (event) { reportError(event.error || event.message); });
  window.addEventListener("unhandledrejection", function (event) { reportError(event.reason); });

  var contextListener = function () {};

  function applyContext(context) {
    if (!context || typeof context !== "object") return;
    guarded(contextListener)(context);
    var root = document.documentElement;
    if (context.theme === "dark" || context.theme === "light") {
      root.setAttribute("data-theme", context.theme);
      root.style.colorScheme = context.theme;
    }
    var variables = context.styles && context.styles.variables;
    if (variables && typeof variables === "object") {
      Object.keys(variables).forEach(function (name) {
        var value = variables[name];
        if (name.indexOf("--") === 0 && typeof value === "string") root.style.setProperty(name, value);
      });
    }
  }

  var lastWidth = 0;
  var lastHeight = 0;
  var queued = false;

  function measure() {
    queued = false;
    var root = document.documentElement;
    var saved = root.style.height;
    root.style.height = "max-content";
    var height = Math.ceil(root.getBoundingClientRect().height);
    root.style.height = saved;
    var width = Math.ceil(window.innerWidth);
    if (width === lastWidth && height === lastHeight) return;
    lastWidth = width;
    lastHeight = height;
    notify("ui/notifications/size-changed", { width: width, height: height });
  }

  function scheduleMeasure() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(measure);
  }

  function start(name, handlers) {
    listeners["ui/notifications/tool-input"] = handlers.input || function () {};
    listeners["ui/notifications/tool-result"] = handlers.result;
    listeners["ui/notifications/tool-cancelled"] = handlers.cancelled || function () {};
    listeners["ui/notifications/host-context-changed"] = applyContext;
    if (handlers.context) contextListener = handlers.context;
    return request("ui/initialize", {
      appInfo: { name: name, version: "1.0.0" },
      appCapabilities: { availableDisplayModes: ["inline"] },
      protocolVersion: PROTOCOL_VERSION
    }).then(function (result) {
      hostCapabilities = (result && result.hostCapabilities) || {};
      applyContext(result && result.hostContext);
      notify("ui/notifications/initialized", {});
      var observer = new ResizeObserver(scheduleMeasure);
      observer.observe(document.documentElement);
      observer.observe(document.body);
      scheduleMeasure();
    }).catch(reportError);
  }

  function canCallTools() { return !!hostCapabilities.serverTools; }

  function callTool(name, args) {
    return request("tools/call", { name: name, arguments: args });
  }

  function resultData(result) {
    if (!result || typeof result !== "object") return { error: "The host sent no tool result." };
    var text = "";
    if (Array.isArray(result.content)) {
      result.content.forEach(function (block) {
        if (block && block.type === "text" && typeof block.text === "string") text += block.text;
      });
    }
    if (result.isError) return { error: text || "The tool failed." };
    if (result.structuredContent && typeof result.structuredContent === "object") {
      return { data: result.structuredContent };
    }
    try { return { data: JSON.parse(text) }; } catch (_) { return { error: "The tool result holds no data." }; }
  }

  return {
    start: start,
    callTool: callTool,
    canCallTools: canCallTools,
    resultData: resultData,
    reportError: reportError,
    guarded: guarded,
    measure: scheduleMeasure
  };
})();
`;
