// Stands in for https://js.stripe.com/basil/stripe.js in tests/e2e/csp-stripe.e2e.ts: this machine
// cannot reach Stripe. It does what the checkout asks of Stripe.js (through @stripe/react-stripe-js)
// and reaches the hosts the real one reaches from the buyer's page, so the page's policy meets the
// same loads: its controller frame (js.stripe.com) and fraud-signals frame (m.stripe.network) when
// Stripe() is called, the Payment Element as a frame from js.stripe.com, and confirmPayment as a
// form-encoded POST to api.stripe.com. The test routes those hosts to stand-ins on this machine.
/* global window, document */
(function () {
  "use strict";

  function frame(src, name, hidden) {
    var iframe = document.createElement("iframe");
    iframe.src = src;
    iframe.name = name;
    iframe.setAttribute("frameborder", "0");
    iframe.setAttribute("allowtransparency", "true");
    iframe.setAttribute("scrolling", "no");
    if (hidden) {
      iframe.setAttribute("aria-hidden", "true");
      iframe.tabIndex = -1;
      iframe.style.cssText =
        "border:none!important;margin:0!important;padding:0!important;width:1px!important;height:1px!important;position:fixed!important;visibility:hidden!important";
    } else {
      // As Stripe's: wallets in the frame ask for the Payment Request API.
      iframe.allow = "payment *; publickey-credentials-get *";
      iframe.title = "Secure payment input frame";
      iframe.style.cssText =
        "border:none!important;margin:0!important;padding:0!important;width:100%!important;min-width:100%!important;height:220px;display:block!important";
    }
    return iframe;
  }

  var frames = 0;

  function Stripe(key) {
    if (!/^pk_(test|live)_/.test(String(key))) throw new Error("Invalid API Key provided: " + key);
    document.body.appendChild(
      frame("https://js.stripe.com/v3/controller-stub.html#apiKey=" + key, "__privateStripeController" + frames++, true),
    );
    document.body.appendChild(
      frame(
        "https://m.stripe.network/inner.html#url=" + encodeURIComponent(window.location.href),
        "__privateStripeMetricsController" + frames++,
        true,
      ),
    );

    var clientSecret = null;

    function createElement(type) {
      var listeners = {};
      var iframe = null;
      var wrapper = null;
      function emit(event, payload) {
        (listeners[event] || []).slice().forEach(function (callback) {
          callback(payload);
        });
      }
      var element = {
        mount: function (target) {
          var node = typeof target === "string" ? document.querySelector(target) : target;
          wrapper = document.createElement("div");
          wrapper.className = "__PrivateStripeElement";
          iframe = frame(
            "https://js.stripe.com/v3/elements-inner-payment-stub.html#type=" + type,
            "__privateStripeFrame" + frames++,
            false,
          );
          iframe.addEventListener("load", function () {
            emit("ready", { elementType: type });
          });
          wrapper.appendChild(iframe);
          node.appendChild(wrapper);
        },
        on: function (event, callback) {
          (listeners[event] = listeners[event] || []).push(callback);
          return this;
        },
        once: function (event, callback) {
          function once(payload) {
            element.off(event, once);
            callback(payload);
          }
          return element.on(event, once);
        },
        off: function (event, callback) {
          listeners[event] = (listeners[event] || []).filter(function (c) {
            return callback !== undefined && c !== callback;
          });
          return this;
        },
        update: function () {},
        focus: function () {},
        blur: function () {},
        clear: function () {},
        collapse: function () {},
        unmount: function () {
          if (wrapper) wrapper.remove();
        },
        destroy: function () {
          if (wrapper) wrapper.remove();
        },
      };
      return element;
    }

    var elements = {
      create: function (type) {
        return createElement(type);
      },
      getElement: function () {
        return null;
      },
      update: function () {},
      fetchUpdates: function () {
        return Promise.resolve({});
      },
      submit: function () {
        return Promise.resolve({});
      },
    };

    function unsupported() {
      return Promise.reject(new Error("Not part of the Stripe.js stand-in"));
    }

    return {
      elements: function (options) {
        clientSecret = options && options.clientSecret;
        return elements;
      },
      createToken: unsupported,
      createPaymentMethod: unsupported,
      confirmCardPayment: unsupported,
      _registerWrapper: function () {},
      registerAppInfo: function () {},
      // As Stripe's: without a redirect needed (a card without 3-D Secure) and redirect
      // "if_required", it resolves with the PaymentIntent; otherwise the browser goes to return_url
      // with the intent's id and client secret.
      confirmPayment: function (params) {
        var id = String(clientSecret).split("_secret_")[0];
        var returnUrl = params.confirmParams.return_url;
        var body = new URLSearchParams({ key: key, client_secret: clientSecret, return_url: returnUrl });
        return window
          .fetch("https://api.stripe.com/v1/payment_intents/" + id + "/confirm", { method: "POST", body: body })
          .then(function (response) {
            return response.json().then(function (json) {
              if (!response.ok) return { error: json.error };
              if (params.redirect === "if_required") return { paymentIntent: json };
              var url = new URL(returnUrl);
              url.searchParams.set("payment_intent", id);
              url.searchParams.set("payment_intent_client_secret", clientSecret);
              url.searchParams.set("redirect_status", json.status);
              window.location.assign(url.href);
              return new Promise(function () {});
            });
          });
      },
    };
  }

  Stripe.version = "basil";
  window.Stripe = Stripe;
})();
