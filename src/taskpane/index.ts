// Task pane entry. In the shared runtime this page also hosts the custom functions and
// loads when Excel starts, so the UI (React + Fluent UI, the heavy part) is fetched as a
// separate chunk only once Office is ready: functions register first.
async function start(): Promise<void> {
  await Office.onReady();
  const root = document.getElementById("root");
  if (!root) return;
  const { mountTaskpane } = await import(/* webpackChunkName: "taskpane-app" */ "./mount");
  mountTaskpane(root);
}

void start();
