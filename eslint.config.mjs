// The web page's JavaScript lint (make lint-js): ESLint's recommended rules, plus what the page
// promises (docs/web.md, How the page is built): no innerHTML and kin (text goes in as text), no
// eval, no string timers, no document.write.
import js from "@eslint/js";
import globals from "globals";

const pageRules = {
  "no-eval": "error",
  "no-implied-eval": "error",
  "no-new-func": "error",
  "no-restricted-properties": [
    "error",
    { property: "innerHTML", message: "No innerHTML: build nodes (dom.js h()) and set text." },
    { property: "outerHTML", message: "No outerHTML: build nodes (dom.js h()) and set text." },
    { property: "insertAdjacentHTML", message: "No HTML strings: build nodes (dom.js h())." },
    { object: "document", property: "write", message: "No document.write." },
  ],
  "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
  "prefer-const": "error",
  eqeqeq: ["error", "always"],
};

export default [
  { ignores: ["node_modules/**", ".venv/**"] },
  js.configs.recommended,
  {
    files: ["api/static/**/*.js", "tests/browser/js/**/*.js"],
    ignores: ["api/static/sw.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.browser } },
    rules: pageRules,
  },
  {
    files: ["api/static/sw.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "script", globals: { ...globals.serviceworker } },
    rules: pageRules,
  },
];
