import { previewDialogUrl } from "../../src/preview/mock-dialog";

test.each([
  [
    "the dialog page, its query kept",
    "https://addin.example/dialog.html?state=s1",
    "https://addin.example/preview-dialog.html?state=s1",
  ],
  [
    "a relative address, resolved against the page",
    "dialog.html?state=s1",
    "http://127.0.0.1:4000/preview-dialog.html?state=s1",
  ],
  ["another page stays as it is", "https://addin.example/help.html", "https://addin.example/help.html"],
])("%s", (_case, url, expected) => {
  expect(previewDialogUrl(url, "http://127.0.0.1:4000/preview.html")).toBe(expected);
});
