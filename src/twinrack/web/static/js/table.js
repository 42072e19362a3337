// The live table page: its components are in table/ (app.js puts them together).
import { html, render } from "/static/vendor/preact-htm.js";
import { App } from "./table/app.js";

const root = document.getElementById("table-root");
root.textContent = "";
render(html`<${App} game=${root.dataset.game} token=${root.dataset.token || ""}
                  worker=${root.dataset.worker || ""} />`, root);
