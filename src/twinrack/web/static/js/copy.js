// Copy buttons: a button.copy whose data-copy names a read-only input puts that input's link
// on the clipboard (the lobby's invite links, the tournament desk's links).

async function copy(button) {
  const input = document.getElementById(button.dataset.copy);
  let done = false;
  try {
    await navigator.clipboard.writeText(input.value);
    done = true;
  } catch {
    // no clipboard API (a page served over plain HTTP): select the text and copy that
    input.select();
    done = document.execCommand && document.execCommand("copy");
  }
  button.textContent = done ? "Copied" : "Select and copy";
  button.dataset.state = done ? "copied" : "select";  // stays after the words go back
  if (!done) input.select();
  setTimeout(() => { button.textContent = "Copy"; }, 2500);
}

for (const button of document.querySelectorAll("button.copy[data-copy]")) {
  button.addEventListener("click", () => copy(button));
}
for (const input of document.querySelectorAll(".copy-row input[readonly]")) {
  input.addEventListener("focus", () => input.select());
}
