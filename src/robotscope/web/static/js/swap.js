/* Loading a text into the editor without losing the one it replaces.
 *
 * A panel that loads a text (a fetched file, a stored version) makes a
 * keeper for its notice: a <p> with a status line and one button. Loading
 * keeps the editor's text; the button puts it back, and then the loaded
 * text again, so a load never loses the user's work. The editor has one
 * other text: the notice is shown in the panel that loaded last.
 */
import { $ } from "./dom.js";
import { setText, text } from "./editor.js";
import { t } from "./i18n.js";
import { state } from "./state.js";

const keepers = [];
// The editor's other text, {text, origin, loaded, keeper}: before a swap the text the load
// replaced (loaded false), after one the text that was in the editor then (loaded true); null
// when a load replaced nothing worth keeping.
let other = null;

/* A keeper for the notice `id` (its note `id-note`, its button `id-go`); `labels` are message keys:
 * {replaced, restore, restoredNote, reload}, each given `params()` when shown. */
export function keeper(id, labels) {
  const mine = { id, labels, params: {} };
  keepers.push(mine);
  $(id + "-go").addEventListener("click", swap);
  return {
    /* Puts `value` (from `origin`, a robots.txt URL) in the editor, keeping the text there. */
    load(value, origin, params = {}) {
      const before = text();
      other = before.trim() && before !== value ? { text: before, origin: state.origin, loaded: false, keeper: mine } : null;
      mine.params = params;
      state.origin = origin; // set before the text, whose change asks for the analysis
      setText(value);
      renderSwaps();
    },
  };
}

/* Swaps the editor's text with the kept one: undo of the load, and redo after it. */
function swap() {
  const now = { text: text(), origin: state.origin, loaded: !other.loaded, keeper: other.keeper };
  state.origin = other.origin;
  setText(other.text);
  other = now;
  renderSwaps();
}

/* Each keeper's notice (kept, so focus stays on its button), in the current language. */
export function renderSwaps() {
  for (const k of keepers) {
    const shown = other !== null && other.keeper === k;
    $(k.id).hidden = !shown;
    if (!shown) continue;
    $(k.id + "-note").textContent = t(other.loaded ? k.labels.restoredNote : k.labels.replaced, k.params);
    $(k.id + "-go").textContent = t(other.loaded ? k.labels.reload : k.labels.restore, k.params);
  }
}
